import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ceilToTick, fairMicro, floorToTick, levelLayout } from "../../../src/mock/flow/layout.js";

describe("level layout", () => {
  it("puts k·spreadTicks ticks between fair value and the k-th level (tick 0.01)", () => {
    expect(levelLayout(550_000n, 10_000n, 3, 2)).toEqual({
      bids: [530_000n, 510_000n, 490_000n],
      asks: [570_000n, 590_000n, 610_000n],
    });
    // Off-tick fair value: bids round down, asks round up.
    expect(levelLayout(553_400n, 10_000n, 2, 2)).toEqual({
      bids: [530_000n, 510_000n],
      asks: [580_000n, 600_000n],
    });
  });

  it("works on a 0.001 tick", () => {
    expect(levelLayout(220_000n, 1_000n, 3, 2)).toEqual({
      bids: [218_000n, 216_000n, 214_000n],
      asks: [222_000n, 224_000n, 226_000n],
    });
  });

  it("drops levels outside [tick, 1 − tick] near the edges", () => {
    expect(levelLayout(30_000n, 10_000n, 5, 1)).toEqual({
      bids: [20_000n, 10_000n],
      asks: [40_000n, 50_000n, 60_000n, 70_000n, 80_000n],
    });
    expect(levelLayout(995_000n, 10_000n, 3, 1).asks).toEqual([]);
  });

  it("holds its invariants for any fair value, tick, depth and spacing", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(10_000n, 1_000n),
        fc.bigInt({ min: 1n, max: 999_999n }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 5 }),
        (tick, fair, levels, spread) => {
          const { bids, asks } = levelLayout(fair, tick, levels, spread);
          const step = BigInt(spread) * tick;
          for (const p of [...bids, ...asks]) {
            expect(p % tick).toBe(0n);
            expect(p).toBeGreaterThanOrEqual(tick);
            expect(p).toBeLessThanOrEqual(1_000_000n - tick);
          }
          for (const b of bids) expect(b).toBeLessThan(fair);
          for (const a of asks) expect(a).toBeGreaterThan(fair);
          for (let i = 1; i < bids.length; i++) expect((bids[i - 1] ?? 0n) - (bids[i] ?? 0n)).toBe(step);
          for (let i = 1; i < asks.length; i++) expect((asks[i] ?? 0n) - (asks[i - 1] ?? 0n)).toBe(step);
          expect(bids.length).toBeLessThanOrEqual(levels);
          expect(asks.length).toBeLessThanOrEqual(levels);
          // Far from the edges every level is there.
          if (fair - BigInt(levels) * step - tick >= tick) expect(bids.length).toBe(levels);
          if (fair + BigInt(levels) * step + tick <= 1_000_000n - tick) expect(asks.length).toBe(levels);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("rounds to the tick in both directions, negatives included", () => {
    expect(floorToTick(25_000n, 10_000n)).toBe(20_000n);
    expect(floorToTick(-5_000n, 10_000n)).toBe(-10_000n);
    expect(ceilToTick(25_000n, 10_000n)).toBe(30_000n);
    expect(ceilToTick(30_000n, 10_000n)).toBe(30_000n);
  });

  it("fair values map to micro-units within [1, 10⁶ − 1]; YES + NO = 1 exactly", () => {
    expect(fairMicro(0.5534)).toBe(553_400n);
    expect(fairMicro(0)).toBe(1n);
    expect(fairMicro(1)).toBe(999_999n);
    const yes = fairMicro(0.3719);
    expect(yes + (1_000_000n - yes)).toBe(1_000_000n);
  });
});
