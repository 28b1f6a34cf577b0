import { describe, expect, it } from "vitest";
import {
  initVolatility,
  sigma,
  updateVolatility,
  type VolatilityState,
} from "../../../strategies/volatility.js";
import { codeOf } from "./helpers.js";

const feed = (s: VolatilityState, points: [mid: number, ts: number][]) =>
  points.reduce((acc, [mid, ts]) => updateVolatility(acc, mid, ts), s);

describe("volatility: EWMA of squared mid changes per second", () => {
  // halfLife 1 s, so α = 1 − 2^(−dt/1s): α = 0.5 for dt = 1 s, 0.75 for dt = 2 s.
  const s0 = initVolatility({ halfLifeMs: 1_000, minSamples: 1 });

  it("follows the hand-computed recursion", () => {
    // t=0 mid 0.500: anchor only.
    const a = feed(s0, [[500_000, 0]]);
    expect(sigma(a)).toBeUndefined();
    // t=1s mid 0.501: r = 0.001, r²/dt = 1e-6; S = 0.5·1e-6 = 5e-7, W = 0.5 → σ² = 1e-6, σ = 0.001
    const b = updateVolatility(a, 501_000, 1_000);
    expect(sigma(b)).toBeCloseTo(0.001, 12);
    // t=2s mid 0.501: r = 0; S = 2.5e-7, W = 0.75 → σ² = 3.3333e-7, σ = 5.7735e-4
    const c = updateVolatility(b, 501_000, 2_000);
    expect(sigma(c)).toBeCloseTo(Math.sqrt(2.5e-7 / 0.75), 12);
    expect(sigma(c)).toBeCloseTo(5.7735e-4, 7);
    // t=4s mid 0.499: r = −0.002 over 2 s → r²/dt = 2e-6; α = 0.75
    // S = 0.25·2.5e-7 + 0.75·2e-6 = 1.5625e-6; W = 0.25·0.75 + 0.75 = 0.9375 → σ² = 1.6667e-6, σ = 1.29099e-3
    const d = updateVolatility(c, 499_000, 4_000);
    expect(d.sum).toBeCloseTo(1.5625e-6, 18);
    expect(d.weight).toBeCloseTo(0.9375, 15);
    expect(sigma(d)).toBeCloseTo(1.29099e-3, 8);
  });

  it("a move inside one millisecond is measured from the earlier anchor, not lost", () => {
    // 0.500 @0, 0.503 @1000, then 0.501 also @1000 (same ms), then 0.501 @2000.
    // The same-ms update leaves the anchor at (0.503, 1000), so the move to 0.501 shows up at
    // t=2000 as r = 0.501 − 0.503 = −0.002 over 1 s.
    const s = feed(s0, [
      [500_000, 0],
      [503_000, 1_000],
      [501_000, 1_000],
      [501_000, 2_000],
    ]);
    // S = 0.5·(0.5·9e-6) + 0.5·4e-6 = 2.25e-6 + 2e-6 = 4.25e-6; W = 0.75 → σ² = 5.6667e-6
    expect(s.samples).toBe(2);
    expect(sigma(s)).toBeCloseTo(Math.sqrt(4.25e-6 / 0.75), 12);
  });

  it("ignores out-of-order and invalid observations", () => {
    const s = feed(s0, [
      [500_000, 0],
      [501_000, 1_000],
    ]);
    expect(updateVolatility(s, 510_000, 500)).toBe(s);
    expect(updateVolatility(s, Number.NaN, 2_000)).toBe(s);
    expect(updateVolatility(s, 0, 2_000)).toBe(s);
  });

  it("reports nothing before minSamples returns", () => {
    const w = initVolatility({ halfLifeMs: 1_000, minSamples: 3 });
    const s = feed(w, [
      [500_000, 0],
      [501_000, 1_000],
      [502_000, 2_000],
    ]);
    expect(s.samples).toBe(2);
    expect(sigma(s)).toBeUndefined();
    expect(sigma(updateVolatility(s, 503_000, 3_000))).toBeCloseTo(0.001, 12);
  });

  it("re-anchors across a gap longer than maxGapMs", () => {
    const g = initVolatility({ halfLifeMs: 1_000, minSamples: 1, maxGapMs: 5_000 });
    const s = feed(g, [
      [500_000, 0],
      [501_000, 1_000],
      [600_000, 60_000], // a 59 s gap (a resync): no return recorded
    ]);
    expect(s.samples).toBe(1);
    expect(sigma(s)).toBeCloseTo(0.001, 12);
    expect(s.anchorMid).toBe(600_000);
  });

  it("refuses a bad config", () => {
    expect(codeOf(() => initVolatility({ halfLifeMs: 0, minSamples: 1 }))).toBe("volatility_config_invalid");
    expect(codeOf(() => initVolatility({ halfLifeMs: 1_000, minSamples: 0 }))).toBe(
      "volatility_config_invalid",
    );
  });
});

describe("volatility: recovers σ of a Brownian mid whatever the sampling", () => {
  // Seeded xorshift + Box–Muller, so the test is deterministic.
  function normals(seed: number): () => number {
    let x = seed >>> 0 || 1;
    const u = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return ((x >>> 0) + 0.5) / 2 ** 32;
    };
    return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  }

  it.each([
    ["regular 100 ms", () => 100],
    ["irregular 1 ms to ~0.7 s", (r: () => number) => 1 + Math.floor(Math.abs(r()) * 170)],
  ])("%s sampling: within 5% of the true σ", (_, step) => {
    const trueSigma = 0.0004; // per √s
    const r = normals(42);
    let s = initVolatility({ halfLifeMs: 3_600_000, minSamples: 10 });
    let mid = 500_000;
    let t = 0;
    for (let i = 0; i < 40_000; i++) {
      s = updateVolatility(s, mid, t);
      const dtMs = step(r);
      t += dtMs;
      mid += trueSigma * Math.sqrt(dtMs / 1_000) * r() * 1_000_000;
    }
    expect(Math.abs((sigma(s) as number) / trueSigma - 1)).toBeLessThan(0.05);
  });
});
