import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Clock } from "../../../src/core/clock.js";
import { RecordWriteError } from "../../../src/gateway/record/errors.js";
import { RotatingWriter } from "../../../src/gateway/record/rotating-writer.js";
import { type RecordedFrame, recordLine } from "../../../src/recorded/format.js";

/*
 * The recorder cannot slow the exchange down: frames keep arriving while the disk stalls. The
 * writer buffers them up to a limit (waiting for the file stream's 'drain' as it writes), and
 * past the limit it stops with a RecordWriteError `write_stalled` instead of growing without
 * bound: write() refuses the frame (returns false) and every frame accepted before reaches the
 * file once the disk comes back. The disk here is a real Writable whose writes complete when the
 * test says so.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-recorded-bp-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clock: Clock = {
  now: () => Date.parse("2026-06-01T00:00:00.000Z"),
  setTimer: () => 0,
  cancelTimer: () => undefined,
};

/** A disk whose writes complete only when released (all at once, or one per event-loop turn). */
class SlowDisk extends Writable {
  readonly chunks: Buffer[] = [];
  #held: (() => void)[] = [];
  #mode: "stalled" | "open" | "slow";
  constructor(mode: "stalled" | "slow") {
    super();
    this.#mode = mode;
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error) => void): void {
    this.chunks.push(chunk);
    if (this.#mode === "open") done();
    else if (this.#mode === "slow") setImmediate(done);
    else this.#held.push(done);
  }
  release(): void {
    this.#mode = "open";
    for (const done of this.#held.splice(0)) done();
  }
  records(): RecordedFrame[] {
    const text = gunzipSync(Buffer.concat(this.chunks)).toString("utf8");
    return text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as RecordedFrame);
  }
}

/** Frame `n`: about 230 bytes of JSON, each different (deflate cannot make them vanish). */
const frame = (n: number): RecordedFrame => ({
  recvTs: Date.parse("2026-06-01T00:00:00.000Z") + n,
  frame: {
    type: "book_delta",
    sid: 1,
    channel: "token_book",
    id: "4242",
    data: {
      seq: n + 2,
      prevSeq: n + 1,
      changes: [{ side: n % 2 === 0 ? "buy" : "sell", price: `0.${(n * 37) % 97}`, size: String(n * 13) }],
      tag: ((n * 2_654_435_761) % 4_294_967_296).toString(36),
    },
  },
});

const turn = () => new Promise<void>((r) => setImmediate(r));
const LIMIT = 256 * 1024;

describe("RotatingWriter back-pressure (a stalled disk)", () => {
  it("buffers up to the limit, then stops with write_stalled; every accepted frame reaches the file", async () => {
    const disk = new SlowDisk("stalled");
    const failures: unknown[] = [];
    const w = new RotatingWriter({
      dir,
      clock,
      policy: { maxAgeMs: 3_600_000 },
      maxPendingBytes: LIMIT,
      openSink: () => disk,
      onFailure: (err) => failures.push(err),
    });
    // 20 MB of frames at most: what a busy market sends in minutes. Turns of the event loop let
    // the writer push what it can into the stalled disk.
    let accepted = 0;
    let acceptedBytes = 0;
    for (let n = 0; n < 80_000; n++) {
      if (w.write(frame(n)) === false) break;
      accepted++;
      acceptedBytes += recordLine(frame(n)).length;
      if (n % 200 === 0) await turn();
    }
    expect(w.failure).toBeInstanceOf(RecordWriteError);
    expect(w.failure).toMatchObject({ code: "write_stalled", details: { limitBytes: LIMIT } });
    expect((w.failure as Error).message).toMatch(/did not keep up/);
    expect(failures).toEqual([w.failure]);
    // Bounded: the limit, plus what went into the gzip pipeline before the disk stopped taking
    // bytes (a 64 KiB batch, and 16 KiB stream buffers of compressed bytes: ~460 kB of JSON here).
    expect(w.pendingBytes).toBeLessThanOrEqual(LIMIT);
    expect(acceptedBytes).toBeGreaterThan(LIMIT);
    expect(acceptedBytes).toBeLessThan(LIMIT + 1024 * 1024);
    expect(accepted).toBeLessThan(6_000);
    // Refused from now on, whatever comes.
    expect(w.write(frame(accepted + 1))).toBe(false);

    // The disk comes back: the buffered frames are written and the file is complete.
    disk.release();
    await w.close();
    const recs = disk.records();
    expect(recs.length).toBe(accepted);
    expect(recs.map((r) => (r.frame.data as { seq: number }).seq)).toEqual(
      Array.from({ length: accepted }, (_, n) => n + 2),
    );
    expect(w.frames).toBe(accepted);
    expect(w.pendingBytes).toBe(0);
  });

  it("a disk error (ENOSPC) stops the writer once; later frames are refused and close() settles", async () => {
    const full = new Writable({
      write(_chunk, _enc, done) {
        done(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }));
      },
    });
    const failures: unknown[] = [];
    const w = new RotatingWriter({
      dir,
      clock,
      policy: { maxAgeMs: 3_600_000 },
      openSink: () => full,
      onFailure: (err) => failures.push(err),
    });
    let accepted = 0;
    for (let n = 0; n < 5_000 && w.write(frame(n)); n++) {
      accepted++;
      if (n % 100 === 0) await turn();
    }
    await w.flush();
    await w.close();
    expect(failures).toHaveLength(1);
    expect(w.failure).toMatchObject({ code: "ENOSPC" });
    expect(w.write(frame(9_999))).toBe(false);
    expect(accepted).toBeLessThan(5_000);
    expect(w.pendingBytes).toBe(0);
  });

  it("a slow disk that keeps up: waits for it, loses nothing and never reaches the limit", async () => {
    const disk = new SlowDisk("slow");
    const w = new RotatingWriter({
      dir,
      clock,
      policy: { maxAgeMs: 3_600_000 },
      maxPendingBytes: LIMIT,
      openSink: () => disk,
    });
    let peak = 0;
    for (let n = 0; n < 20_000; n++) {
      expect(w.write(frame(n))).toBe(true);
      peak = Math.max(peak, w.pendingBytes);
      if (n % 100 === 0) {
        await turn(); // 100 frames (~23 kB) per turn of the event loop…
        // …while the disk keeps up on average: under CPU load (a CI run on 2 cores) zlib's thread can
        // lag some turns behind, and a feed that never waited would reach the limit on load alone.
        for (let i = 0; i < 10_000 && w.pendingBytes > LIMIT / 2; i++) await turn();
      }
    }
    await w.close();
    expect(w.failure).toBeUndefined();
    expect(peak).toBeLessThan(LIMIT);
    expect(peak).toBeGreaterThan(0);
    expect(disk.records().length).toBe(20_000);
  });
});
