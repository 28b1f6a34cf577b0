import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { RotatingWriter } from "../../../src/gateway/record/rotating-writer.js";
import type { RecordedFrame } from "../../../src/recorded/format.js";
import { SetClock } from "../../support/set-clock.js";

/*
 * Review s25 (walkrec): `mm record` into a directory it cannot write (EACCES), or onto a disk that
 * fills up (ENOSPC), stops with exit 1 and names the error — but its summary, which README says
 * "counts what the files hold", claimed frames that never reached the disk: `"files": [<a file that
 * was never created>], "frames": 1` for an unwritable directory, and on a full disk every frame
 * handed to gzip (697 claimed, 695 in the file). The count came from frames batched in memory, and a
 * flush after the failure was taken as a confirmed one. An operator cataloguing recordings from the
 * summaries is told of data that does not exist.
 */

const root = mkdtempSync(join(tmpdir(), "mm-review-walkrec-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T0 = Date.parse("2026-06-01T00:00:00.000Z");
const frame = (n: number): RecordedFrame => ({
  recvTs: T0 + n,
  frame: {
    type: "book_delta",
    sid: 1,
    channel: "token_book",
    id: "4242",
    data: { seq: n + 2, prevSeq: n + 1 },
  },
});

/** A disk that takes bytes until `full` is set, then fails every write with ENOSPC. */
class FillingDisk extends Writable {
  readonly chunks: Buffer[] = [];
  full = false;
  override _write(chunk: Buffer, _e: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.full) {
      done(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }));
      return;
    }
    this.chunks.push(chunk);
    done();
  }
  /** The complete lines the bytes it took hold (a cut gzip stream read up to its cut). */
  lines(): number {
    const text = gunzipSync(Buffer.concat(this.chunks), { finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString();
    return text.split("\n").filter((l) => l !== "").length;
  }
}

describe("RotatingWriter after a disk error", () => {
  it("claims no file it could not create, and no frame", async () => {
    const w = new RotatingWriter({
      dir: join(root, "no-such-folder"), // the open fails (ENOENT), as EACCES would
      clock: new SetClock(T0),
      policy: { maxAgeMs: 3_600_000 },
    });
    for (let n = 0; n < 5; n++) w.write(frame(n));
    await w.flush();
    await w.close();
    expect(w.failure).toMatchObject({ code: "ENOENT" });
    expect(w.files.filter((f) => existsSync(f))).toEqual([]);
    expect(w.files).toEqual([]);
    expect(w.frames).toBe(0);
  });

  it("counts only the frames confirmed on disk before the disk filled up", async () => {
    const disk = new FillingDisk();
    const w = new RotatingWriter({
      dir: root,
      clock: new SetClock(T0),
      policy: { maxAgeMs: 3_600_000 },
      openSink: () => disk,
    });
    for (let n = 0; n < 10; n++) w.write(frame(n));
    await w.flush();
    expect(disk.lines()).toBe(10);
    disk.full = true;
    for (let n = 10; n < 20; n++) w.write(frame(n));
    await w.flush();
    await w.close();
    expect(w.failure).toMatchObject({ code: "ENOSPC" });
    expect(disk.lines()).toBe(10);
    expect(w.frames).toBe(10);
    expect(w.atRisk.frames).toBe(10);
  });
});
