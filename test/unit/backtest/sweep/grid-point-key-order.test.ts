import { describe, expect, it } from "vitest";
import { summaryJson } from "../../../../src/backtest/report/summary.js";
import { expandGrid, parseSweepFile, pointStrategies } from "../../../../src/backtest/sweep/grid.js";
import { runSweepPoint, type SweepTask } from "../../../../src/backtest/sweep/point.js";
import { runSynthetic } from "../../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../../src/backtest/synthetic/scenario.js";

/*
 * README "Sweeps": each point's summary is "byte for byte the summary `mm backtest` writes for that
 * configuration alone". The summary echoes the strategy entry as written (`strategy:
 * sc.strategyRaw`). pointStrategies rebuilds the entry as `{ name, params }`, so a config that
 * writes `"params"` before `"name"` gets a sweep summary whose strategy keys are in another order
 * than the single run of the same configuration: the bytes differ.
 */

// A small scenario (1 path, 3 steps) whose strategy entry lists params before name.
const scenario = (gamma: number) => ({
  seed: 3,
  paths: 1,
  process: { s0: "0.5", sigma: 0.0005, dtMs: 1000, horizonMs: 3000 },
  fills: { A: 0.5, k: 100, size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: {
    params: { gamma, k: 100, orderSize: "1", sigma: 0.0005 },
    name: "avellaneda-stoikov",
  },
  wallet: { usdc: "1000", shares: "1000" },
  engine: { reconcileIntervalMs: 600_000 },
});

describe("sweep point vs the same configuration run alone", () => {
  it("gives a byte-identical summary when the config writes params before name", async () => {
    const base = scenario(1);
    const spec = parseSweepFile({ grid: { gamma: [5] } });
    const points = expandGrid(spec.axes);
    const [strategy] = pointStrategies(spec, parseScenario([base]).strategyRaw, points);
    const task: SweepTask = { kind: "synthetic", scenarioLayers: [base], strategy };
    const swept = await runSweepPoint(task, () => {});

    // The user's configuration with the point's value written in: gamma 5.
    const alone = await runSynthetic(parseScenario([scenario(5)]));

    expect(summaryJson(swept.summary)).toBe(summaryJson(alone.summary));
  });
});
