import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Clock } from "../../../src/core/clock.js";
import { RotatingWriter } from "../../../src/gateway/record/rotating-writer.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { deltaRecord } from "../../support/recorded-cut.js";

/*
 * What a killed recorder leaves is the file's bytes as they are at that moment. The recorder's
 * timer calls RotatingWriter.flush() every second "to bound what a crash can lose": once that
 * flush has settled, every frame written before it must be in the file (a Z_SYNC_FLUSH through
 * deflate, and the file stream's write done), not in deflate's buffers, where a block holds tens of
 * KB compressed (~1,400 realistic frames: minutes of a quiet market). The frequent size check of the
 * rotation must not sync-flush (each sync flush ends a deflate block and costs compression).
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-recorded-flush-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rec = deltaRecord;

// The records a crash at this moment would leave readable: the bytes on disk, decompressed as far
// as they go (no gzip end needed).
function recordsOnDisk(path: string): number {
  const text = gunzipSync(readFileSync(path), { finishFlush: constants.Z_SYNC_FLUSH }).toString("utf8");
  return text.split("\n").filter((l) => l !== "").length;
}

const fixedClock: Clock = { now: () => 1_750_000_000_000, setTimer: () => 0, cancelTimer: () => undefined };

describe("recorded flush durability (a killed recorder)", () => {
  it("RecordedWriter.flush() has every record so far in the file once it settles", async () => {
    const path = join(dir, "w.jsonl.gz");
    const w = RecordedWriter.create(path);
    for (let i = 0; i < 100; i++) await w.write(rec(i));
    await w.flush();
    expect(recordsOnDisk(path)).toBe(100);
    for (let i = 100; i < 250; i++) await w.write(rec(i));
    await w.flush();
    expect(recordsOnDisk(path)).toBe(250);
    const size = readFileSync(path).length;
    await w.flush(); // nothing written since: no new sync block
    expect(readFileSync(path).length).toBe(size);
    await w.close();
    expect(gunzipSync(readFileSync(path)).toString().split("\n")).toHaveLength(251); // a complete gzip file
  });

  it("flush({ sync: false }) only hands the batch to zlib: deflate keeps it", async () => {
    const path = join(dir, "nosync.jsonl.gz");
    const w = RecordedWriter.create(path);
    for (let i = 0; i < 100; i++) await w.write(rec(i));
    await w.flush({ sync: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(recordsOnDisk(path)).toBe(0);
    await w.close();
    expect(recordsOnDisk(path)).toBe(100);
  });

  it("RotatingWriter.flush() (the recorder's timer) has every frame queued so far in the file", async () => {
    const sub = join(dir, "rot");
    mkdirSync(sub);
    const w = new RotatingWriter({ dir: sub, clock: fixedClock, policy: { maxAgeMs: 3_600_000 } });
    for (let i = 0; i < 100; i++) void w.write(rec(i));
    await w.flush();
    expect(recordsOnDisk(w.files[0] as string)).toBe(100);
    for (let i = 100; i < 130; i++) void w.write(rec(i));
    await w.flush();
    expect(recordsOnDisk(w.files[0] as string)).toBe(130);
    await w.close();
    expect(w.failure).toBeUndefined();
  });

  it("the rotation's size check (every 64 frames) does not sync-flush: same bytes as a plain writer", async () => {
    const sub = join(dir, "sized");
    mkdirSync(sub);
    const rot = new RotatingWriter({ dir: sub, clock: fixedClock, policy: { maxBytes: 1e9 } });
    for (let i = 0; i < 3_000; i++) void rot.write(rec(i));
    await rot.close();
    const plainPath = join(dir, "plain.jsonl.gz");
    const plain = RecordedWriter.create(plainPath);
    for (let i = 0; i < 3_000; i++) await plain.write(rec(i));
    await plain.close();
    // 47 size checks happened; a sync flush at each would have added ~47 block ends.
    const rotated = readFileSync(rot.files[0] as string);
    const plainBytes = readFileSync(plainPath);
    expect(rotated.length).toBe(plainBytes.length);
    expect(rotated.equals(plainBytes)).toBe(true);
  });
});
