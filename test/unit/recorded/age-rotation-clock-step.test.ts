import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RotatingWriter } from "../../../src/gateway/record/rotating-writer.js";
import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";
import { SetClock } from "../../support/set-clock.js";

/*
 * `mm record --rotate-minutes 60` starts a new file once the current one is an hour old. Its clock is
 * the wall clock, which NTP or a VM resume can step back; recvTs then continues on the monotonic
 * clock (RecvClamp), and a file's age must too: measured on the wall clock, which after a step back
 * of S shows no time passing until it catches up, a file would be S longer than its limit.
 */

const T0 = Date.parse("2026-06-01T00:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-recorded-age-step-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = (n: number, recvTs: number): RecordedFrame => ({
  recvTs,
  frame: { type: "book_delta", sid: 1, channel: "token_book", id: "7", data: { n } },
});

async function framesOf(file: string): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for await (const r of readRecorded(file)) out.push(r);
  return out;
}

const nOf = (r: RecordedFrame) => (r.frame.data as { n: number }).n;

/**
 * A frame a minute for `minutes` minutes of real (monotonic) time, through hourly rotation; the wall
 * clock steps by `stepMs` after `stepAt` minutes.
 */
async function record(name: string, minutes: number, stepAt: number, stepMs: number) {
  const sub = join(dir, name);
  mkdirSync(sub);
  const clock = new SetClock(T0);
  let mono = 0;
  const w = new RotatingWriter({ dir: sub, clock, policy: { maxAgeMs: HOUR }, monotonic: () => mono });
  for (let m = 0; m <= minutes; m++) {
    mono = m * MINUTE;
    clock.t = T0 + m * MINUTE + (m >= stepAt ? stepMs : 0);
    w.write(frame(m, clock.now()));
    await w.flush(); // each frame reaches the file when it arrives (the disk keeps up)
  }
  await w.close();
  expect(w.failure).toBeUndefined();
  const files = await Promise.all(w.files.map(framesOf));
  return { names: w.files.map((f) => basename(f)), files };
}

describe("age rotation when the wall clock steps back", () => {
  it("a 1-hour step back with hourly rotation: files still hold an hour each, not two", async () => {
    const { names, files } = await record("back", 149, 30, -HOUR);
    expect(files.map((f) => [nOf(f[0] as RecordedFrame), nOf(f.at(-1) as RecordedFrame)])).toEqual([
      [0, 59],
      [60, 119],
      [120, 149],
    ]);
    // Named by the same continued time as their frames' recvTs: in recording order, an hour apart.
    expect(names).toEqual([
      "market-20260601T000000Z-0001.jsonl.gz",
      "market-20260601T010000Z-0002.jsonl.gz",
      "market-20260601T020000Z-0003.jsonl.gz",
    ]);
    for (const f of files) {
      expect((f.at(-1)?.recvTs ?? 0) - (f[0]?.recvTs ?? 0)).toBeLessThan(HOUR);
    }
  });

  it("a step back of at most 1 s between readings stays on wall time, as recvTs does", async () => {
    // A minute between frames: the second is simply not seen, and the first file is a frame longer.
    const { files } = await record("small", 149, 30, -1_000);
    expect(files.map((f) => f.length)).toEqual([61, 60, 29]);
  });

  it("a step forward rotates at once, on wall time as before (recvTs follows the wall clock too)", async () => {
    const { names, files } = await record("forward", 149, 30, HOUR);
    expect(files.map((f) => [nOf(f[0] as RecordedFrame), nOf(f.at(-1) as RecordedFrame)])).toEqual([
      [0, 29],
      [30, 89],
      [90, 149],
    ]);
    expect(names[1]).toBe("market-20260601T013000Z-0002.jsonl.gz");
  });
});
