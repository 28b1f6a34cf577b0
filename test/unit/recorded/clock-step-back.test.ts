import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeByRecvTs } from "../../../src/backtest/replay/merge.js";
import type { ClockStepBack } from "../../../src/gateway/record/recv-clamp.js";
import { RotatingWriter } from "../../../src/gateway/record/rotating-writer.js";
import { type RecordedFrame, readRecorded } from "../../../src/recorded/format.js";
import { SetClock } from "../../support/set-clock.js";

/*
 * The recorder stamps recvTs with the wall clock, which NTP or a VM resume can step backwards.
 * The recorded format promises receive order, and the replay merges the rotated files of one
 * recording by recvTs: a file whose first frames are stamped before the previous file's tail has
 * them replayed ahead of frames that arrived before them. The writer keeps recvTs non-decreasing
 * over the whole recording (RecvClamp: a frame stamped up to 1 s before the last one written gets
 * the last one's stamp; further back, recvTs continues from the last one on the monotonic clock;
 * both are counted), and its file names keep sorting in recording order.
 */

const T0 = Date.parse("2026-06-01T00:00:00.000Z");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-recorded-step-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sub(name: string): string {
  const d = join(dir, name);
  mkdirSync(d);
  return d;
}

/** Frame `n`, with a payload that does not compress away (so that size rotation happens). */
const frame = (n: number, recvTs: number, pad = ""): RecordedFrame => ({
  recvTs,
  frame: { type: "book_delta", sid: 1, channel: "token_book", id: "7", data: { n, pad } },
});

async function readAll(files: readonly string[]): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for (const f of files) for await (const r of readRecorded(f)) out.push(r);
  return out;
}

const nOf = (r: RecordedFrame) => (r.frame.data as { n: number }).n;

describe("recvTs when the wall clock steps back while recording", () => {
  it("stays non-decreasing within and across files; the replay's merge keeps the arrival order", async () => {
    const clock = new SetClock(T0);
    const steps: ClockStepBack[] = [];
    let mono = 0; // the monotonic clock, ms since the first frame
    const w = new RotatingWriter({
      dir: sub("merge"),
      clock,
      policy: { maxAgeMs: 60_000 },
      onClockStepBack: (step) => steps.push(step),
      monotonic: () => mono,
    });
    const sent: number[] = [];
    const send = (n: number, recvTs: number, monoMs: number) => {
      sent.push(n);
      mono = monoMs;
      w.write(frame(n, recvTs));
    };
    // File 1: a minute of frames; the clock steps back 0.5 s once in the middle (frame 31): held.
    for (let n = 0; n < 30; n++) send(n, T0 + n * 2_000, n * 2_000);
    send(30, T0 + 58_000, 58_000);
    send(31, T0 + 57_500, 58_050);
    send(32, T0 + 59_900, 59_900);
    await w.flush();
    // The clock steps back 5 s: recvTs continues on the monotonic clock (100 ms, then 1 s between
    // frames). The frames are written after the wall clock has come back past the file's age
    // limit (the disk was slow), so they open file 2.
    clock.t = T0 + 61_000;
    for (let n = 33; n < 37; n++) send(n, T0 + 55_000 + (n - 33) * 1_000, 60_000 + (n - 33) * 1_000);
    // Corrected forward again, past the continued stamps: wall time from there on.
    for (let n = 37; n < 40; n++) send(n, T0 + 64_500 + (n - 37) * 1_000, 64_000 + (n - 37) * 1_000);
    await w.close();

    expect(w.files.map((f) => basename(f))).toEqual([
      "market-20260601T000000Z-0001.jsonl.gz",
      "market-20260601T000101Z-0002.jsonl.gz",
    ]);
    const [first, second] = await Promise.all(w.files.map((f) => readAll([f])));
    expect(first?.map(nOf)).toEqual(sent.slice(0, 33));
    expect(second?.map(nOf)).toEqual(sent.slice(33));
    const all = [...(first ?? []), ...(second ?? [])];
    for (let i = 1; i < all.length; i++) {
      expect(all[i]?.recvTs, `frame ${i}`).toBeGreaterThanOrEqual(all[i - 1]?.recvTs ?? 0);
    }
    // What a replay sees: the held frame at the stamp of the frame before it; the frames of the big
    // step at their monotonic intervals; then wall time again.
    expect(all[31]?.recvTs).toBe(T0 + 58_000);
    expect(second?.map((r) => r.recvTs - T0)).toEqual([
      60_000, 61_000, 62_000, 63_000, 64_500, 65_500, 66_500,
    ]);
    expect(w.clockStepBacks).toEqual({ frames: 5, maxStepMs: 5_000 });
    expect(steps).toEqual([
      { stepMs: 500, continued: false },
      { stepMs: 5_000, continued: true },
    ]); // once per step back, not per frame

    // The directory replay (merged by recvTs, ties to the earlier file) gives the arrival order.
    const merged: RecordedFrame[] = [];
    for await (const r of mergeByRecvTs(w.files.map((f) => readRecorded(f)))) merged.push(r);
    expect(merged.map(nOf)).toEqual(sent);
  });

  it("names files in recording order when the clock is behind the current file's start", async () => {
    const clock = new SetClock(T0);
    clock.t = T0 + 60_000;
    let mono = 0;
    const w = new RotatingWriter({
      dir: sub("names"),
      clock,
      policy: { maxBytes: 8_000 },
      monotonic: () => mono,
    });
    // Hex digits of a counter mix: compresses to about half, so a few hundred frames fill 8 kB.
    const pad = (n: number) =>
      Array.from({ length: 24 }, (_, i) => ((n * 7_919 + i * 104_729) % 65_521).toString(16)).join("");
    w.write(frame(0, clock.t, pad(0)));
    await w.flush();
    clock.t = T0; // a minute back: every later file starts "before" the first
    for (let n = 1; n <= 1_200; n++) {
      mono = n;
      w.write(frame(n, T0 + n, pad(n)));
      if (n % 50 === 0) await w.flush(); // the size check sees the bytes on disk
    }
    await w.close();
    expect(w.failure).toBeUndefined();
    expect(w.files.length).toBeGreaterThanOrEqual(3);
    const names = w.files.map((f) => basename(f));
    expect([...names].sort()).toEqual(names);
    expect(names[0]).toBe("market-20260601T000100Z-0001.jsonl.gz");
    const all = await readAll(w.files);
    expect(all.map(nOf)).toEqual(Array.from({ length: 1_201 }, (_, n) => n));
    // A minute back: continued on the monotonic clock (the wall clock never caught up).
    expect(all.map((r) => r.recvTs)).toEqual(Array.from({ length: 1_201 }, (_, n) => T0 + 60_000 + n));
    expect(w.clockStepBacks).toEqual({ frames: 1_200, maxStepMs: 60_000 });
  });
});
