import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMetric } from "../../../../src/backtest/sweep/metric.js";
import { runSynthetic } from "../../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../../src/backtest/synthetic/scenario.js";
import { runBacktestCli } from "../../../integration/backtest/support/cli.js";

/**
 * README "Ranking": points without a value (e.g. a Sharpe ratio with too few samples) rank last. A
 * synthetic summary's acrossPaths figure that no path has is `{ paths: 0, mean: null, std: null }`,
 * so `acrossPaths.sharpe.mean` of a point that never fills is a null leaf: ranked last. Found by a
 * review: the figure used to be null as a whole, `.mean` under it was "not a numeric field", and
 * one such grid point stopped the whole sweep (exit 2).
 */
const SCENARIO = {
  seed: 5,
  paths: 2,
  process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 130_000, increments: "normal" },
  fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.002 } },
  wallet: { usdc: "100", shares: "100" },
  engine: { reconcileIntervalMs: 600_000 },
};

/** The scenario with the strategy's k changed (k = 0.5 quotes so wide that nothing ever fills). */
const withK = (k: number) => ({
  ...SCENARIO,
  strategy: { ...SCENARIO.strategy, params: { ...SCENARIO.strategy.params, k } },
});

describe("ranking a synthetic sweep by an acrossPaths figure a point does not have", () => {
  it("acrossPaths.sharpe.mean is accepted, and a point whose paths have no Sharpe has no value there (ranks last)", async () => {
    const { summary } = await runSynthetic(parseScenario([withK(0.5)]));
    expect(summary.fills.mean).toBe("0"); // the point never fills: flat equity, no Sharpe
    expect(summary.acrossPaths.sharpe).toEqual({ paths: 0, mean: null, std: null });
    const metric = parseMetric("acrossPaths.sharpe.mean", "synthetic");
    expect(metric.read(JSON.parse(JSON.stringify(summary)))).toBeUndefined();
  });

  describe("through mm backtest --sweep", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "mm-rank-missing-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("a grid point that never fills ranks last instead of stopping the sweep (exit 2)", async () => {
      const scenario = join(dir, "scenario.json");
      const sweep = join(dir, "sweep.json");
      writeFileSync(scenario, JSON.stringify(SCENARIO));
      writeFileSync(sweep, JSON.stringify({ strategy: "avellaneda-stoikov", grid: { k: [200, 0.5] } }));
      const r = await runBacktestCli(
        "--scenario",
        scenario,
        "--sweep",
        sweep,
        "--workers",
        "1",
        "--progress",
        "none",
        "--rank-by",
        "acrossPaths.sharpe.mean",
      );
      expect(r.stderr).not.toMatch(/not a numeric field/);
      expect(r.code, r.stderr).toBe(0);
    }, 60_000);
  });
});
