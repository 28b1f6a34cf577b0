import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBacktestCli } from "./support/cli.js";
import { writeRecording } from "./support/recording.js";
import { syntheticSweepFiles, writeIn } from "./support/synthetic-sweep.js";

/*
 * `mm backtest --sweep --rank-by`: every path is checked before any point runs, against the
 * summary's shape and the sweep's own settings (src/backtest/sweep/summary-shape.ts). Strategy
 * parameters, reject codes, latency and queue-model settings used to be judged only against the
 * first point's summary: a typo cost that point's run, and a reject code no point hit stopped
 * the sweep there.
 */

let dir: string;
let scenario: string;
let sweep: string;
const file = (name: string, content: unknown) => writeIn(dir, name, content);
beforeAll(() => {
  ({ dir, scenario, sweep } = syntheticSweepFiles("mm-sweep-rank-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runBacktestCli;
/** The synthetic sweep ranked by `rankBy`, without a progress display. */
const rankSweep = (rankBy: string, ...more: string[]) =>
  run("--scenario", scenario, "--sweep", sweep, "--rank-by", rankBy, ...more, "--progress", "none");

describe("mm backtest --sweep --rank-by of a synthetic sweep", () => {
  it("refuses before any point runs a --rank-by that is no number: a part, text, a strategy parameter the points lack", async () => {
    // These used to be found only in the first point's summary (strategy parameters, reject codes,
    // latency and queue-model settings were open parts): now the sweep's settings say what is there.
    const refused = async (rankBy: string) => {
      const r = await rankSweep(rankBy, "-w", "1");
      expect(r.code).toBe(2);
      expect(r.stderr).not.toContain("sweep of");
      return r.stderr;
    };
    expect(await refused("fillModel")).toMatch(
      /rank-by "fillModel": .*fillModel is not a number but a part of the summary/,
    );
    expect(await refused("strategy.params.gama")).toMatch(
      /the synthetic summary has no strategy\.params\.gama \(strategy\.params holds gamma, k, orderSize, sigma\)/,
    );
    expect(await refused("perPath[2].pnl")).toMatch(/perPath has 2 elements in this sweep/);
  }, 30_000);

  it("ranks by a strategy parameter the grid sets", async () => {
    const r = await rankSweep("strategy.params.gamma:asc");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ranked by strategy\.params\.gamma/);
  }, 60_000);

  it("warns when --rank-by names a field that holds no number in any point (null everywhere)", async () => {
    // A 30 s path has no Sharpe (two 60 s intervals needed): acrossPaths.sharpe.mean is null in every
    // point, accepted (a number that may be missing), but a ranking by it is only the grid's order,
    // and the sweep says so.
    const r = await rankSweep("acrossPaths.sharpe.mean");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `mm backtest: warning: rank-by "acrossPaths.sharpe.mean" holds no number in any point's summary: the table keeps the grid's order\n`,
    );
    const ranked = await rankSweep("pnl");
    expect(ranked.stderr).not.toContain("holds no number");
  }, 60_000);
});

describe("mm backtest --sweep of a replay: --rank-by against the config's own settings", () => {
  it("refuses a latency or queue-model field the config lacks before any point; ranks by a reject code none hit (0)", async () => {
    const data = join(dir, "rec-rank.jsonl.gz");
    await writeRecording(data, 100);
    const config = file("bands-rank.json", {
      strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } },
      markets: { tick: "0.01", minSize: "5" },
      latency: { feedMs: { type: "uniform", minMs: 5, maxMs: 10 } },
    });
    const grid = file("bands-rank-sweep.json", { grid: { "bands[0].size": ["10", "40"] } });
    const sweepBy = (rankBy: string) =>
      run("-c", config, "-d", data, "--sweep", grid, "-w", "1", "--progress", "none", "--rank-by", rankBy);
    const latency = await sweepBy("latency.feedMs.medianMs");
    expect(latency.code).toBe(2);
    expect(latency.stderr).toMatch(
      /has no latency\.feedMs\.medianMs \(latency\.feedMs holds type, minMs, maxMs\)/,
    );
    expect(latency.stderr).not.toContain("sweep of");
    const queue = await sweepBy("mirror.queueModel.n");
    expect(queue.code).toBe(2);
    expect(queue.stderr).toMatch(/has no mirror\.queueModel/);
    const code = await sweepBy("orders.rejectCodes.market_not_open");
    expect(code.code, code.stderr).toBe(0);
    expect(code.stderr).not.toContain("holds no number");
    expect(code.stdout.split("\n")[0]).toBe(
      "ranked by orders.rejectCodes.market_not_open (orders.rejectCodes.market_not_open, largest first): 2 points, 0 failed",
    );
  }, 60_000);
});
