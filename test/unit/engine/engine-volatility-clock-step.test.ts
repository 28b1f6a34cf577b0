import { describe, expect, it } from "vitest";
import { type ConfiguredStrategy, parseStrategyConfig } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";
import { BANDS } from "./support/harness.js";
import { steppedStarted } from "./support/stepped-harness.js";

const MINUTE = 60_000;

/** Bands, noting the σ each quoting step was given. */
function watching(): { strategy: ConfiguredStrategy; sigmas: (number | undefined)[] } {
  const bands = parseStrategyConfig(BANDS);
  const sigmas: (number | undefined)[] = [];
  const strategy: ConfiguredStrategy = {
    name: bands.name,
    params: bands.params,
    quote: (ctx: StrategyContext) => {
      sigmas.push(ctx.volatility);
      return bands.quote(ctx);
    },
  };
  return { strategy, sigmas };
}

/**
 * σ (strategies/volatility.ts) is a rate per second of elapsed time. The engine's clock is the wall
 * clock, which NTP or a VM resume can step forward by minutes while no time passes: read as one long
 * interval with a single ordinary mid change in it, the step would all but replace σ's history
 * (weight 1 − 2^(−dt/halfLife) ≈ 1) by a rate minutes too low, and A–S / GLFT would quote far too
 * tight on it until new samples came in.
 */
describe.each([
  ["4 min (under the default maxGapMs of 5 min)", 4 * MINUTE],
  ["10 min (over it)", 10 * MINUTE],
])("σ across a wall-clock step forward by %s", (_name, stepMs) => {
  it("keeps measuring the mid's moves per second of elapsed time", async () => {
    const { strategy, sigmas } = watching();
    const volatility = { halfLifeMs: 5_000, minSamples: 5 };
    const { h, wall, yes } = await steppedStarted({ configured: strategy, options: { volatility } });
    // The crowd's mid alternates 0.50 / 0.51 every second: σ = 0.01 per √s.
    for (let i = 0; i < 30; i++) {
      await h.run(1_000);
      h.crowdQuote(yes, i % 2 === 0 ? "0.49" : "0.48", i % 2 === 0 ? "0.53" : "0.52");
    }
    await h.run();
    expect(sigmas.at(-1)).toBeCloseTo(0.01, 3);
    wall.stepMs = stepMs;
    for (let i = 30; i < 33; i++) {
      await h.run(1_000);
      h.crowdQuote(yes, i % 2 === 0 ? "0.49" : "0.48", i % 2 === 0 ? "0.53" : "0.52");
    }
    await h.run();
    const after = sigmas.at(-1);
    expect(after).toBeDefined();
    expect(after as number).toBeCloseTo(0.01, 3);
  });
});
