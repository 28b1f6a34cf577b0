import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import { runSweepCommand } from "../../../src/cli/backtest-sweep.js";
import { captureIo, runBacktestCli } from "./support/cli.js";
import { CONDITION, TOKEN, writeFrames } from "./support/killed-recording.js";

/*
 * A token the config names but the data never books (a typo in its id, a file of another day) used
 * to run silently: exit 0, zero PnL and uptime for it. The summary now lists it in
 * data.tokensWithoutBook and mm backtest warns on stderr naming it.
 */

const TYPO = "4243";
const LAYERS = [
  {
    strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
    latency: { feedMs: 5, entryMs: 3, responseMs: 3 },
    markets: { tick: "0.01" },
  },
];
const tokens = (...ids: string[]) => ({
  markets: { tokens: ids.map((tokenId) => ({ tokenId, conditionId: CONDITION })) },
});

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-backtest-unbooked-"));
  data = join(dir, "rec.jsonl.gz");
  await writeFrames(data, 1, 60);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a configured token the data never books", () => {
  it("is listed in the summary's data.tokensWithoutBook; a token that is booked is not", async () => {
    const r = await runBacktest({ config: parseReplayConfig([...LAYERS, tokens(TOKEN, TYPO)]), data });
    expect(r.summary.data.tokensWithoutBook).toEqual([TYPO]);
    const ok = await runBacktest({ config: parseReplayConfig([...LAYERS, tokens(TOKEN)]), data });
    expect(ok.summary.data).not.toHaveProperty("tokensWithoutBook"); // the summary it always gave
    const scanned = await runBacktest({ config: parseReplayConfig(LAYERS), data });
    expect(scanned.summary.data).not.toHaveProperty("tokensWithoutBook");
  }, 60_000);

  it("mm backtest warns on stderr naming it and still exits 0 with the summary", async () => {
    const cfg = join(dir, "typo.json");
    writeFileSync(cfg, JSON.stringify(tokens(TOKEN, TYPO)));
    const r = await runBacktestCli(
      "--config",
      "config/backtest/bands-replay.json",
      "--config",
      cfg,
      "--data",
      data,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `mm backtest: warning: markets.tokens names ${TYPO}, which has no token_book frame in the data: its figures are all zero\n`,
    );
    expect(r.stderr).not.toContain(`names ${TOKEN},`);
    expect(JSON.parse(r.stdout)).toMatchObject({ data: { tokensWithoutBook: [TYPO] } });
  }, 60_000);

  it("a sweep warns once, however many points replay the data", async () => {
    const cfg = join(dir, "sweep-typo.json");
    writeFileSync(cfg, JSON.stringify({ ...LAYERS[0], ...tokens(TOKEN, TYPO) }));
    const grid = join(dir, "grid.json");
    writeFileSync(grid, JSON.stringify({ grid: { "bands[0].size": ["10", "20"] }, rankBy: "fills" }));
    const io = captureIo();
    const code = await runSweepCommand(
      { sweep: grid, workers: "2", progress: "none" },
      { configs: [cfg], scenarios: [], data, seed: undefined, paths: undefined, out: undefined },
      io,
    );
    const stderr = io.err.join("");
    expect(code, stderr).toBe(0);
    expect(stderr.split(`names ${TYPO},`).length - 1, stderr).toBe(1);
  }, 60_000);
});
