import { mkdirSync, mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeByRecvTs } from "../../../src/backtest/replay/merge.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { recordingFileName } from "../../../src/gateway/record/rotating-writer.js";
import { type RecordedFrame, RecordedWriter, readRecorded } from "../../../src/recorded/format.js";
import { bookFrame } from "./support/book-frames.js";

/*
 * `mm backtest DIR` over a long recording: `mm record` rotates hourly by default, so a month is
 * ~720 files. Issue 6 item 1: memory stays flat however large the data. A file is opened when its
 * first record is next in time and let go once used up, so only files overlapping in time are open
 * (each with a batch of parsed records) together; the replay's order is the merge's, unchanged.
 */

const TOKEN = "4242";
const CONDITION = `0x${"ab".repeat(32)}`;
const T0 = 1_750_000_000_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-backtest-rotated-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function frame(token: string, n: number, ts: number): RecordedFrame {
  return bookFrame(token, CONDITION, n, ts);
}

const LAYERS = [
  {
    strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
    markets: { tick: "0.01", tokens: [{ tokenId: TOKEN, conditionId: CONDITION }] },
  },
];

describe("replay of a directory of rotated files", () => {
  it("opens no file before its first record is next (and none is read ahead)", async () => {
    const FILES = 40;
    const PER_FILE = 150;
    const sub = join(dir, "rec");
    mkdirSync(sub);
    // One recording rotated into consecutive files.
    let n = 1;
    const names: string[] = [];
    for (let f = 0; f < FILES; f++) {
      const path = join(sub, recordingFileName("market", T0 + n * 1_000, f + 1));
      names.push(path);
      const w = RecordedWriter.create(path);
      for (let i = 0; i < PER_FILE; i++, n++) await w.write(frame(TOKEN, n, T0 + n * 1_000));
      await w.close();
    }
    // Once the first frame is replayed, files 3.. disappear. A replay that had opened them (and
    // read a batch of each) would go on to the end; a lazy one replays files 1 and 2, then finds
    // file 3 gone when its first record is next.
    let frames = 0;
    const err = await runBacktest({
      config: parseReplayConfig(LAYERS),
      data: sub,
      progressEvery: 1,
      onProgress: (done) => {
        frames = done;
        if (done === 1) for (const path of names.slice(2)) unlinkSync(path);
      },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "ENOENT", path: names[2] });
    expect(frames).toBe(2 * PER_FILE);
  }, 60_000);

  it("replays a directory exactly as the merged single file (ties at file boundaries to the earlier file)", async () => {
    const sub = join(dir, "overlap");
    mkdirSync(sub);
    // Token A rotated into 3 files whose boundaries share a receive time; token B in one file that
    // overlaps them all, on a step that ties with A's every few frames.
    const a = Array.from({ length: 600 }, (_, i) => frame(TOKEN, i + 1, T0 + i * 20));
    const b = Array.from({ length: 300 }, (_, i) => frame("4343", i + 1, T0 + 10 + i * 30));
    const files: [string, RecordedFrame[]][] = [
      ["a-1.jsonl.gz", a.slice(0, 200)],
      [
        "a-2.jsonl.gz",
        [{ ...(a[199] as RecordedFrame), frame: { type: "heartbeat" } }, ...a.slice(200, 400)],
      ],
      ["a-3.jsonl.gz", a.slice(400)],
      ["b.jsonl.gz", b],
    ];
    for (const [name, recs] of files) {
      const w = RecordedWriter.create(join(sub, name));
      for (const r of recs) await w.write(r);
      await w.close();
    }
    const merged = join(dir, "merged.jsonl.gz");
    const w = RecordedWriter.create(merged);
    for await (const r of mergeByRecvTs(files.map(([name]) => readRecorded(join(sub, name)))))
      await w.write(r);
    await w.close();

    const config = parseReplayConfig([
      ...LAYERS,
      {
        markets: {
          tokens: [
            { tokenId: TOKEN, conditionId: CONDITION },
            { tokenId: "4343", conditionId: CONDITION },
          ],
        },
      },
    ]);
    const fromDir = await runBacktest({ config, data: sub });
    const fromFile = await runBacktest({ config, data: merged });
    expect(fromDir.summary.data.frames).toBe(901);
    const { files: _f1, ...dirData } = fromDir.summary.data;
    const { files: _f2, ...fileData } = fromFile.summary.data;
    expect(dirData).toEqual(fileData);
    expect({ ...fromDir.summary, data: undefined }).toEqual({ ...fromFile.summary, data: undefined });
  }, 60_000);
});
