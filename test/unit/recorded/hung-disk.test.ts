import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { RecordWriteError } from "../../../src/gateway/record/errors.js";
import { RotatingWriter } from "../../../src/gateway/record/rotating-writer.js";
import { type RecordedFrame, recordLine } from "../../../src/recorded/format.js";

/*
 * A disk that hangs for good (an NFS hard mount whose server is gone, a dead volume) never
 * completes a write. Closing the writer waits for the disk to take the frames it accepted, but
 * not for ever: once the disk has taken nothing for `drainIdleMs` (on the writer's clock), close()
 * gives up, destroys the file's stream and settles, with RecordWriteError `drain_abandoned`
 * naming the file and the frames and bytes that may be missing from it. A disk that is only slow
 * keeps answering, so the wait goes on as long as it makes progress and nothing is lost.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-recorded-hung-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse("2026-06-01T00:00:00.000Z");

/** A disk whose first write never completes. */
class HungDisk extends Writable {
  writes = 0;
  override _write(_chunk: Buffer, _enc: BufferEncoding, _done: () => void): void {
    this.writes++;
  }
}

/**
 * A disk that completes one write every `everyMs` of the clock, and counts the bytes it completed
 * in `bytesWritten` as fs.WriteStream does.
 */
class SlowDisk extends Writable {
  readonly chunks: Buffer[] = [];
  bytesWritten = 0;
  constructor(
    private readonly clock: SimClock,
    private readonly everyMs: number,
  ) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.clock.setTimer(this.everyMs, () => {
      this.chunks.push(chunk);
      this.bytesWritten += chunk.length;
      done();
    });
  }
  /** A write is in progress (it completes on the clock). */
  get busy(): boolean {
    return this.writableLength > 0;
  }
  records(): RecordedFrame[] {
    return gunzipSync(Buffer.concat(this.chunks))
      .toString("utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as RecordedFrame);
  }
}

/** Frame `n`: ~230 bytes of JSON that deflate cannot make vanish. */
const frame = (n: number): RecordedFrame => ({
  recvTs: T0 + n,
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
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Waits (real time: zlib works on the thread pool) until the writer has handed on what it could
 * before the disk stopped answering: its pending bytes stay the same for 50 ms.
 */
async function quiet(w: RotatingWriter): Promise<void> {
  let seen = -1;
  for (let same = 0; same < 5; ) {
    await sleep(10);
    same = w.pendingBytes === seen ? same + 1 : 0;
    seen = w.pendingBytes;
  }
}

/**
 * Moves the clock `ms` forward in `stepMs` steps, letting the I/O of each step run (zlib works on
 * the thread pool: a few real milliseconds, not only turns of the event loop).
 */
async function advance(clock: SimClock, ms: number, stepMs: number): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    clock.advanceBy(stepMs);
    await new Promise((r) => setTimeout(r, 2));
    for (let i = 0; i < 3; i++) await turn();
  }
}

describe("RotatingWriter.close on a disk that never answers", () => {
  it("gives up after drainIdleMs without progress, naming the file and what may be lost", async () => {
    const clock = new SimClock(T0);
    const disk = new HungDisk();
    const w = new RotatingWriter({
      dir,
      clock,
      policy: { maxAgeMs: 3_600_000 },
      maxPendingBytes: 64 * 1024,
      drainIdleMs: 5_000,
      openSink: () => disk,
    });
    let accepted = 0;
    let acceptedBytes = 0;
    for (let n = 0; n < 20_000 && w.write(frame(n)); n++) {
      accepted++;
      acceptedBytes += recordLine(frame(n)).length;
      if (n % 100 === 0) await turn();
    }
    expect(w.failure).toMatchObject({ code: "write_stalled" });

    let settled = false;
    const closing = w.close().then(() => {
      settled = true;
    });
    await quiet(w);
    await advance(clock, 4_500, 500);
    expect(settled).toBe(false); // still waiting for the disk
    await advance(clock, 1_500, 500);
    expect(settled).toBe(true);
    await closing;

    const file = w.files[0];
    expect(w.abandoned).toBeInstanceOf(RecordWriteError);
    // Nothing was ever confirmed written: every accepted frame may be missing.
    expect(w.abandoned).toMatchObject({
      code: "drain_abandoned",
      details: { file, idleMs: 5_000, framesAtRisk: accepted, bytesAtRisk: acceptedBytes },
    });
    expect(w.abandoned?.message).toContain(file);
    expect(w.abandoned?.message).toContain(`${accepted} frame(s)`);
    expect(w.failure).toMatchObject({ code: "write_stalled" }); // the first failure stays the cause
    expect(disk.writes).toBe(1); // the one write it never finished
    expect(disk.destroyed).toBe(true);
    expect(clock.pending).toBe(0); // the watchdog is gone
  });

  it("counts frames confirmed by a completed flush as safe", async () => {
    const clock = new SimClock(T0);
    let hang = false;
    const chunks: Buffer[] = [];
    const disk = new Writable({
      write(chunk: Buffer, _enc, done) {
        if (hang) return; // from now on the disk never answers
        chunks.push(chunk);
        done();
      },
    });
    const w = new RotatingWriter({
      dir,
      clock,
      policy: { maxAgeMs: 3_600_000 },
      drainIdleMs: 1_000,
      openSink: () => disk,
    });
    for (let n = 0; n < 100; n++) w.write(frame(n));
    await w.flush();
    hang = true;
    let atRiskBytes = 0;
    for (let n = 100; n < 130; n++) {
      w.write(frame(n));
      atRiskBytes += recordLine(frame(n)).length;
    }
    let settled = false;
    const closing = w.close().then(() => {
      settled = true;
    });
    await quiet(w);
    await advance(clock, 1_500, 250);
    expect(settled).toBe(true);
    await closing;
    expect(w.failure).toBe(w.abandoned);
    expect(w.abandoned).toMatchObject({ details: { framesAtRisk: 30, bytesAtRisk: atRiskBytes } });
    // The flushed part is readable from what reached the disk.
    const text = gunzipSync(Buffer.concat(chunks), { finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString("utf8");
    expect(text.split("\n").filter((l) => l !== "")).toHaveLength(100);
  });

  it("waits as long as a slow disk keeps taking bytes, and loses nothing", async () => {
    const clock = new SimClock(T0);
    const disk = new SlowDisk(clock, 600);
    const w = new RotatingWriter({
      dir,
      clock,
      policy: { maxAgeMs: 3_600_000 },
      drainIdleMs: 1_000,
      openSink: () => disk,
    });
    for (let n = 0; n < 8_000; n++) expect(w.write(frame(n))).toBe(true);
    let settled = false;
    const closing = w.close().then(() => {
      settled = true;
    });
    // One 16 KiB write per 600 ms: far longer than drainIdleMs in all. The clock moves only while
    // the disk is busy (not while zlib, on real time, is).
    for (let i = 0; i < 5_000 && !settled; i++) {
      if (disk.busy) clock.advanceBy(200);
      await sleep(1);
    }
    expect(settled).toBe(true);
    await closing;
    expect(clock.now() - T0).toBeGreaterThan(5_000);
    expect(w.abandoned).toBeUndefined();
    expect(w.failure).toBeUndefined();
    expect(disk.records().map((r) => (r.frame.data as { seq: number }).seq)).toEqual(
      Array.from({ length: 8_000 }, (_, n) => n + 2),
    );
  });
});
