import { describe, expect, it } from "vitest";
import {
  initVolatility,
  sigma,
  updateVolatility,
  type VolatilityState,
} from "../../../strategies/volatility.js";

const MINUTE = 60_000;

/** Mids alternating 0.50 / 0.51 every `everyMs` from `fromMs`, `n` of them. */
function feed(
  s: VolatilityState,
  fromMs: number,
  n: number,
  everyMs: number,
  move = 10_000,
): VolatilityState {
  let out = s;
  for (let i = 0; i < n; i++) out = updateVolatility(out, 500_000 + (i % 2) * move, fromMs + i * everyMs);
  return out;
}

/** The engine's clock is the wall clock: NTP or a VM resume can step it back by minutes. */
describe("volatility: a clock that steps back", () => {
  it("after a 10-min step back, σ follows the mid again within seconds, not after 10 min", () => {
    const config = { halfLifeMs: 5_000, minSamples: 5, maxGapMs: 300_000 };
    let s = feed(initVolatility(config), 0, 30, 1_000);
    const before = sigma(s);
    expect(before).toBeCloseTo(0.01, 3); // 0.01 per second
    // The clock steps back 10 min; the mid now moves 5× as much per second.
    s = feed(s, 30_000 - 10 * MINUTE, 30, 1_000, 50_000);
    const after = sigma(s);
    expect(after).toBeDefined();
    expect(after as number).toBeGreaterThan(0.04);
  });

  it("a reading under a second behind the anchor still changes nothing (jitter, one millisecond's move)", () => {
    let s = initVolatility({ halfLifeMs: 1_000, minSamples: 1 });
    s = updateVolatility(s, 500_000, 10_000);
    expect(updateVolatility(s, 510_000, 9_500)).toBe(s);
    s = updateVolatility(s, 501_000, 11_000);
    expect(sigma(s)).toBeCloseTo(0.001, 9);
  });
});
