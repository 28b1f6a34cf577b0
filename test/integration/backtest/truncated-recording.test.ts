import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { summaryJson } from "../../../src/backtest/report/summary.js";
import { recordLine } from "../../../src/recorded/format.js";
import { runBacktestCli } from "./support/cli.js";
import {
  CONDITION,
  CUT_FILES,
  frame,
  killedRecording as killedRecordingIn,
  TOKEN,
  writeFrames,
} from "./support/killed-recording.js";

/*
 * A recorder killed mid-file (SIGKILL, OOM, power loss) leaves its last file without the gzip end,
 * usually stopping inside a line. `mm backtest DIR` replays such a recording: the complete files,
 * and the complete lines of the cut one; the cut file is listed in the summary's
 * data.truncatedFiles and a warning names it. Any other damage is bad data: exit 2 naming the file.
 */

const [FILE1, FILE2] = CUT_FILES;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-backtest-cut-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const killedRecording = (name: string) => killedRecordingIn(dir, name);

const LAYERS = [
  {
    strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
    latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
    markets: { tick: "0.01" },
  },
];

describe("replay of a crash-killed recording", () => {
  it("replays the complete files and the complete lines of the cut one, and says which file was cut", async () => {
    const sub = await killedRecording("rec");
    const cut: string[] = [];
    const r = await runBacktest({
      config: parseReplayConfig(LAYERS),
      data: sub,
      onTruncated: (f) => cut.push(f),
    });
    expect(r.summary.data.frames).toBe(180);
    expect(r.summary.data.files).toEqual([FILE1, FILE2]);
    expect(r.summary.data.truncatedFiles).toEqual([FILE2]);
    expect(cut).toEqual([join(sub, FILE2)]); // once, though the token scan and the replay both read it

    // Exactly the replay of the complete lines: the same summary as a clean file of frames 1..180.
    const clean = join(dir, "clean.jsonl.gz");
    await writeFrames(clean, 1, 180);
    const c = await runBacktest({ config: parseReplayConfig(LAYERS), data: clean });
    expect(c.summary.data).not.toHaveProperty("truncatedFiles"); // complete data: the summary it always gave
    const { data: _d1, ...rest } = r.summary;
    const { data: _d2, ...cleanRest } = c.summary;
    expect(rest).toEqual(cleanRest);

    // Deterministic: the same bytes again, also when the config names the tokens (no token scan).
    const again = await runBacktest({ config: parseReplayConfig(LAYERS), data: sub });
    expect(summaryJson(again.summary)).toBe(summaryJson(r.summary));
    const named = parseReplayConfig([
      ...LAYERS,
      { markets: { tokens: [{ tokenId: TOKEN, conditionId: CONDITION }] } },
    ]);
    const direct = await runBacktest({ config: named, data: sub });
    expect(direct.summary.data.truncatedFiles).toEqual([FILE2]);
    expect(direct.summary.data.frames).toBe(180);
  }, 60_000);

  it("mm backtest warns on stderr naming the cut file and exits 0", async () => {
    const sub = await killedRecording("cli");
    const r = await runBacktestCli("--config", "config/backtest/bands-replay.json", "--data", sub);
    expect(r.code, r.stderr).toBe(0);
    const cutPath = join(sub, FILE2);
    expect(r.stderr).toContain(
      `mm backtest: warning: ${cutPath} is cut short (no gzip end, as a killed recorder leaves it): ` +
        "replayed up to its last complete line\n",
    );
    const summary = JSON.parse(r.stdout) as { data: { frames: number; truncatedFiles: string[] } };
    expect(summary.data).toMatchObject({ frames: 180, truncatedFiles: [FILE2] });
  }, 60_000);

  it("mm backtest exits 2 naming the file when a file is not gzip (bad data, not a crash)", async () => {
    const sub = join(dir, "notgz");
    mkdirSync(sub);
    await writeFrames(join(sub, FILE1), 1, 50);
    const bad = join(sub, FILE2);
    writeFileSync(bad, recordLine(frame(51))); // plain JSON under a .jsonl.gz name
    const r = await runBacktestCli("--config", "config/backtest/bands-replay.json", "--data", sub);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `mm backtest: ${bad}: not a valid gzip file (incorrect header check) (code bad_gzip)\n`,
    );
    expect(r.stdout).toBe("");
  });
});
