import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { dataWarnings, unsyncedTokenWarning } from "../../../src/cli/backtest-sweep.js";
import { RecordedWriter } from "../../../src/recorded/format.js";
import { frame, TOKEN, writeFrames } from "./support/killed-recording.js";

/*
 * A recording that starts mid-stream (a rotated file replayed alone: `mm record` writes no snapshot
 * when it rotates) holds deltas of a book whose other levels it never saw. The exchange's book built
 * from them alone is not the market: the bot must not be synced on it, only on a recorded snapshot.
 */

const LAYERS = [
  {
    strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
    latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
    markets: { tick: "0.01" },
  },
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-mid-stream-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("replay of a recording that starts mid-stream", () => {
  it("serves no snapshot built from deltas alone: the bot quotes nothing until the data gives a whole book", async () => {
    const data = join(dir, "rotated.jsonl.gz");
    await writeFrames(data, 2, 600); // frames 2..600 (30 s): deltas only, no snapshot
    const r = await runBacktest({ config: parseReplayConfig(LAYERS), data });
    expect(r.summary.data.snapshotsServed).toBe(0);
    expect(r.summary.quoteUptime).toBe(0);
    expect(r.summary.fills.count).toBe(0);
    // Said, not left to an all-zero summary: in the summary and on stderr (mm backtest, a sweep).
    expect(r.summary.data).toHaveProperty("tokensWithoutSnapshot", [TOKEN]);
    expect(dataWarnings(r.summary)).toEqual([unsyncedTokenWarning(TOKEN)]);
  }, 60_000);

  it("quotes once a recorded snapshot arrives later in the data", async () => {
    const data = join(dir, "late-snapshot.jsonl.gz");
    const w = RecordedWriter.create(data);
    for (let n = 2; n <= 30; n++) await w.write(frame(n));
    // The recorder's resync: a whole book at seq 31, then deltas go on from it.
    const snap = frame(1);
    const late = { ...snap, recvTs: frame(31).recvTs };
    await w.write({ ...late, frame: { ...late.frame, data: { ...(late.frame.data as object), seq: 31 } } });
    for (let n = 32; n <= 200; n++) await w.write(frame(n));
    await w.close();
    const r = await runBacktest({ config: parseReplayConfig(LAYERS), data });
    expect(r.summary.quoteUptime).toBeGreaterThan(0);
    expect(r.summary.data).not.toHaveProperty("tokensWithoutSnapshot");
  }, 60_000);
});
