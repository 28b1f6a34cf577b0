import { describe, expect, it } from "vitest";
import type { PathResult } from "../../../src/backtest/synthetic/run-path.js";
import { clampWarning, runSynthetic } from "../../../src/backtest/synthetic/run-synthetic.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";

/** A short scenario whose mid starts near 0 and moves far (σ√T ≈ 0.045 over 20 s). */
const NEAR_EDGE = {
  seed: 3,
  paths: 4,
  process: { s0: "0.01", sigma: 0.01, dtMs: 1_000, horizonMs: 20_000, increments: "normal", bounded: false },
  fills: { A: 0.5, k: 200, probability: "exponential", size: "1" },
  market: { tick: "0.000001", minSize: "0.000001" },
  strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 200, orderSize: "1", sigma: 0.01 } },
  wallet: { usdc: "100", shares: "100" },
};

// `bounded: false` let the mid leave (0, 1), and the book then silently showed it at the band's
// edge (a mid of −0.02 quoted as 0.000002): the engine, the fills and the marks saw a different
// process than the one asked for, and nothing said so (review 16). The run still goes ahead (an
// unbounded mid is what was asked for, and near 0.5 it rarely matters), but an unbounded run's
// summary counts the steps the book could not show (`process.clamped`) and mm backtest warns.
describe("synthetic scenario with an unbounded mid", () => {
  it("counts the steps the book could not show the mid, per path and in total", async () => {
    const paths: PathResult[] = [];
    const { summary } = await runSynthetic(parseScenario([NEAR_EDGE]), {
      onPathResult: (p) => paths.push(p),
    });
    const clamped = summary.process.clamped;
    expect(clamped).toBeDefined();
    expect(clamped?.steps).toBe(paths.reduce((a, p) => a + p.clampedSteps, 0));
    expect(clamped?.paths).toBe(paths.filter((p) => p.clampedSteps > 0).length);
    expect(clamped?.steps).toBeGreaterThan(0);
    expect(clampWarning(summary)).toBe(
      `mm backtest: warning: the unbounded mid lay outside [0.000002, 0.999998] on ${clamped?.steps} steps of ${clamped?.paths} of 4 paths; the book showed it at the edge (summary process.clamped)\n`,
    );
  });

  it("reports 0 clamped steps when the mid stays inside, and nothing for a bounded run", async () => {
    const calm = { ...NEAR_EDGE, paths: 2, process: { ...NEAR_EDGE.process, s0: "0.5", sigma: 0.001 } };
    const unbounded = (await runSynthetic(parseScenario([calm]))).summary;
    expect(unbounded.process.clamped).toEqual({ paths: 0, steps: 0 });
    expect(clampWarning(unbounded)).toBeUndefined();
    const bounded = (
      await runSynthetic(
        parseScenario([{ ...NEAR_EDGE, paths: 2, process: { ...NEAR_EDGE.process, bounded: true } }]),
      )
    ).summary;
    expect("clamped" in bounded.process).toBe(false);
    expect(clampWarning(bounded)).toBeUndefined();
  });
});
