import { describe, expect, it } from "vitest";
import {
  clampAsk,
  clampBid,
  finalizeQuotes,
  gridBounds,
  gridDown,
  gridUp,
  inventoryLots,
  quotableTouch,
} from "../../../strategies/quoting.js";
import { book, context, M, market } from "./helpers.js";

describe("clamps: toward the touch, never away from it", () => {
  const g = gridBounds({ bid: 490_000, ask: 510_000 }, 10_000);

  it("a bid at or through the best ask is lowered to one tick below it; an ask through the best bid raised", () => {
    expect(clampBid(530_000, g)).toBe(500_000);
    expect(clampBid(1_200_000, g)).toBe(500_000);
    expect(clampAsk(470_000, g)).toBe(500_000);
    expect(clampAsk(-200_000, g)).toBe(500_000);
    expect(clampBid(480_000, g)).toBe(480_000);
    expect(clampAsk(520_000, g)).toBe(520_000);
  });

  it("a bid below the tick or an ask above 1 − tick is skipped, not moved onto the band", () => {
    expect(clampBid(0, g)).toBeUndefined();
    expect(clampBid(-230_000, g)).toBeUndefined();
    expect(clampBid(10_000, g)).toBe(10_000);
    expect(clampAsk(1_000_000, g)).toBeUndefined();
    expect(clampAsk(990_000, g)).toBe(990_000);
  });
});

describe("grid rounding of model prices", () => {
  it("bids floor, asks ceil", () => {
    expect(gridDown(464_898.7, 1_000)).toBe(464_000);
    expect(gridUp(491_901.3, 1_000)).toBe(492_000);
    expect(gridDown(-5_000.5, 10_000)).toBe(-10_000);
  });

  it("binary noise on an exact grid price does not cost a tick", () => {
    // (0.5 − 0.46) × 1e6 in binary floats is 39999.99999999998, and 0.5 − 0.41 gives 90000.00000000003
    const below = (0.5 - 0.46) * 1_000_000;
    const above = (0.5 - 0.41) * 1_000_000;
    expect(below).toBeLessThan(40_000);
    expect(above).toBeGreaterThan(90_000);
    expect(gridDown(below, 10_000)).toBe(40_000);
    expect(gridUp(above, 10_000)).toBe(90_000);
    // a real difference (a thousandth of a tick) still rounds
    expect(gridUp(530_010, 10_000)).toBe(540_000);
    expect(gridDown(539_990, 10_000)).toBe(530_000);
  });

  it("no price from a non-finite model output", () => {
    expect(gridDown(Number.NaN, 100)).toBeUndefined();
    expect(gridUp(Number.POSITIVE_INFINITY, 100)).toBeUndefined();
  });
});

describe("grid bounds", () => {
  it("one tick inside the opposite best, within [tick, 1 − tick]", () => {
    expect(gridBounds({ bid: 490_000, ask: 510_000 }, 10_000)).toEqual({
      min: 10_000,
      max: 990_000,
      bidMax: 500_000,
      askMin: 500_000,
    });
  });

  it("a tick that does not divide 1: 1 − tick rounded down onto the grid", () => {
    // tick 0.03: 0.97 / 0.03 = 32.33 → 32 · 0.03 = 0.96
    expect(gridBounds({ bid: 300_000, ask: 990_000 }, 30_000)).toMatchObject({
      max: 960_000,
      bidMax: 960_000,
    });
  });

  it("a touch off our grid: the highest grid price strictly below the ask, lowest strictly above the bid", () => {
    // tick 0.01, bid 0.525, ask 0.535 → bids ≤ 0.53, asks ≥ 0.53
    expect(gridBounds({ bid: 525_000, ask: 535_000 }, 10_000)).toMatchObject({
      bidMax: 530_000,
      askMin: 530_000,
    });
  });
});

describe("finalizeQuotes", () => {
  const q = (side: "buy" | "sell", level: number, priceMicro: number | undefined, sizeMicro = 5n * M) => ({
    side,
    level,
    priceMicro,
    sizeMicro,
  });

  it("orders bids then asks by level, drops missing prices and sizes below the minimum", () => {
    const out = finalizeQuotes(
      [
        q("sell", 1, 530_000),
        q("buy", 1, 470_000),
        q("sell", 0, 520_000),
        q("buy", 0, undefined),
        q("buy", 2, 450_000, 1n),
      ],
      M,
    );
    expect(out.map((x) => [x.side, x.level, x.priceMicro])).toEqual([
      ["buy", 1, 470_000],
      ["sell", 0, 520_000],
      ["sell", 1, 530_000],
    ]);
  });

  it("drops both sides of a pair the grid cannot separate (bid ≥ ask)", () => {
    const out = finalizeQuotes([q("buy", 0, 530_000), q("sell", 0, 530_000), q("buy", 1, 500_000)], M);
    expect(out.map((x) => [x.side, x.level, x.priceMicro])).toEqual([["buy", 1, 500_000]]);
  });
});

describe("quotableTouch and inventoryLots", () => {
  it("needs a synced, quotable, OPEN, uncrossed two-sided book and a sane tick", () => {
    const b = book([[0.49, 1]], [[0.51, 1]]);
    expect(quotableTouch(context(b))).toEqual({ bid: 490_000, ask: 510_000 });
    expect(quotableTouch(context(book([[0.5, 1]], [[0.5, 1]])))).toBeUndefined(); // locked
    expect(quotableTouch(context(b, { market: market({ tickMicro: 0 }) }))).toBeUndefined();
    expect(quotableTouch(context(b, { market: market({ status: "CLOSED" }) }))).toBeUndefined();
  });

  it("inventory in lots is a real number", () => {
    expect(inventoryLots(25n * M, 10n * M)).toBe(2.5);
    expect(inventoryLots(-30n * M, 10n * M)).toBe(-3);
  });
});
