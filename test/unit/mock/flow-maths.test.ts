import { describe, expect, it } from "vitest";
import { LOGIT_BOUND, logistic, stepFairValue } from "../../../src/mock/flow/fair-value.js";
import { fairMicro } from "../../../src/mock/flow/layout.js";
import { exponential, standardNormal, uniformInt } from "../../../src/mock/flow/random.js";
import { drawTaker, nextArrivalGap, takerOrder } from "../../../src/mock/flow/takers.js";
import { seededUniform } from "./sim-support.js";

const N = 100_000;

function meanVar(xs: number[]): { mean: number; variance: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, variance };
}

describe("seeded draws", () => {
  it("Box–Muller gives a standard normal (mean 0, variance 1 over 100k draws)", () => {
    const u = seededUniform(7);
    const { mean, variance } = meanVar(Array.from({ length: N }, () => standardNormal(u)));
    expect(Math.abs(mean)).toBeLessThan(0.015); // 4.7 standard errors
    expect(Math.abs(variance - 1)).toBeLessThan(0.03);
  });

  it("exponential inter-arrival times have the Poisson mean 60 000 / rate within 2%", () => {
    const u = seededUniform(11);
    const gaps = Array.from({ length: N }, () => nextArrivalGap(u, 30));
    const { mean, variance } = meanVar(gaps);
    expect(Math.abs(mean - 2_000) / 2_000).toBeLessThan(0.02);
    // Exponential: standard deviation equals the mean.
    expect(Math.abs(Math.sqrt(variance) - 2_000) / 2_000).toBeLessThan(0.03);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0);
  });

  it("arrival counts per window are Poisson (variance ≈ mean)", () => {
    const u = seededUniform(12);
    const windowMs = 60_000;
    const counts: number[] = [];
    let t = 0;
    let count = 0;
    let windowEnd = windowMs;
    for (let i = 0; i < N; i++) {
      t += nextArrivalGap(u, 30);
      while (t >= windowEnd) {
        counts.push(count);
        count = 0;
        windowEnd += windowMs;
      }
      count++;
    }
    const { mean, variance } = meanVar(counts);
    expect(Math.abs(mean - 30)).toBeLessThan(0.6);
    expect(variance / mean).toBeGreaterThan(0.85);
    expect(variance / mean).toBeLessThan(1.15);
  });

  it("a zero rate never arrives; exponential scales with its mean", () => {
    expect(nextArrivalGap(seededUniform(1), 0)).toBe(Number.POSITIVE_INFINITY);
    expect(exponential(() => 1 - Math.exp(-1), 500)).toBeCloseTo(500, 9);
  });

  it("uniformInt covers [min, max] inclusive and nothing else", () => {
    const u = seededUniform(3);
    const seen = new Set<number>();
    for (let i = 0; i < 20_000; i++) seen.add(uniformInt(u, 5, 60));
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 56 }, (_, i) => i + 5));
    expect(uniformInt(() => 0.999999999999, 1, 3)).toBe(3);
  });
});

describe("fair-value walk", () => {
  it("stays strictly inside (0, 1) over 100k steps, even with a violent volatility", () => {
    for (const [start, vol] of [
      [0.5, 0.002],
      [0.02, 0.05],
      [0.999, 0.3],
    ] as const) {
      const u = seededUniform(42);
      let p: number = start;
      let lo = 1;
      let hi = 0;
      for (let i = 0; i < N; i++) {
        p = stepFairValue(p, vol, u);
        lo = Math.min(lo, p);
        hi = Math.max(hi, p);
      }
      expect(lo).toBeGreaterThan(0);
      expect(hi).toBeLessThan(1);
      expect(lo).toBeGreaterThanOrEqual(logistic(-LOGIT_BOUND) - 1e-15);
      expect(hi).toBeLessThanOrEqual(logistic(LOGIT_BOUND) + 1e-15);
      expect(fairMicro(lo)).toBeGreaterThanOrEqual(1n);
      expect(fairMicro(hi)).toBeLessThanOrEqual(999_999n);
    }
  });

  it("moves about volatilityPerStep in price units per step near the middle", () => {
    const u = seededUniform(5);
    const moves = Array.from({ length: 50_000 }, () => stepFairValue(0.5, 0.002, u) - 0.5);
    const { mean, variance } = meanVar(moves);
    expect(Math.abs(mean)).toBeLessThan(0.0001);
    expect(Math.abs(Math.sqrt(variance) - 0.002) / 0.002).toBeLessThan(0.03);
  });

  it("replays exactly for a seed and differs across seeds", () => {
    const path = (seed: number) => {
      const u = seededUniform(seed);
      let p = 0.4;
      return Array.from({ length: 1_000 }, () => {
        p = stepFairValue(p, 0.002, u);
        return p;
      });
    };
    expect(path(9)).toEqual(path(9));
    expect(path(9)).not.toEqual(path(10));
  });
});

describe("takers", () => {
  const params = { takerRatePerMin: 30, takerSizeMin: 5, takerSizeMax: 60, marketOrderShare: 0.3 };

  it("each draw consumes exactly four uniforms and respects the parameters", () => {
    const base = seededUniform(8);
    let calls = 0;
    const u = () => {
      calls++;
      return base();
    };
    let market = 0;
    for (let i = 0; i < 10_000; i++) {
      const d = drawTaker(u, params);
      expect(calls).toBe(4 * (i + 1));
      expect(d.quantity % 1_000_000n).toBe(0n);
      expect(d.quantity).toBeGreaterThanOrEqual(5_000_000n);
      expect(d.quantity).toBeLessThanOrEqual(60_000_000n);
      expect(d.ticksThrough).toBeGreaterThanOrEqual(1);
      expect(d.ticksThrough).toBeLessThanOrEqual(3);
      if (d.kind === "market") market++;
    }
    expect(Math.abs(market / 10_000 - 0.3)).toBeLessThan(0.02);
  });

  const target = {
    account: "0x00000000000000000000000000000000000000aa" as const,
    marketId: "m",
    outcome: "YES",
  };

  it("marketable limits go ticksThrough ticks beyond the touch, inside [tick, 1 − tick]", () => {
    const draw = { side: "buy", quantity: 10_000_000n, kind: "limit", ticksThrough: 2 } as const;
    expect(takerOrder(draw, { ...target, tick: 10_000n, touch: 550_000n })).toMatchObject({
      side: "buy",
      price: 570_000n,
      type: "limit",
      timeInForce: "ioc",
      quantity: 10_000_000n,
    });
    expect(takerOrder(draw, { ...target, tick: 1_000n, touch: 998_000n })?.price).toBe(999_000n);
    const sell = { ...draw, side: "sell" } as const;
    expect(takerOrder(sell, { ...target, tick: 1_000n, touch: 221_000n })?.price).toBe(219_000n);
    expect(takerOrder(sell, { ...target, tick: 10_000n, touch: 20_000n })?.price).toBe(10_000n);
  });

  it("market orders sweep to the widest price; an empty opposite side sends nothing", () => {
    const buy = { side: "buy", quantity: 5_000_000n, kind: "market", ticksThrough: 1 } as const;
    expect(takerOrder(buy, { ...target, tick: 10_000n, touch: 400_000n })).toMatchObject({
      price: 990_000n,
      type: "market",
      timeInForce: "ioc",
    });
    expect(takerOrder({ ...buy, side: "sell" }, { ...target, tick: 1_000n, touch: 400_000n })?.price).toBe(
      1_000n,
    );
    expect(takerOrder(buy, { ...target, tick: 10_000n, touch: undefined })).toBeUndefined();
  });
});
