import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { ctx, px, q, SMALL_RISK_SETTINGS, smallConfig } from "./helpers.js";

/*
 * Nothing capped how many quotes a strategy may ask for on one token: a custom strategy that
 * returned a ladder of thousands of rungs (a loop bound gone wrong) had each one placed, an order
 * each, the inventory caps clipping only their total: hundreds of placements queued per token,
 * the wallet's rate budget spent on them, every other token's requotes waiting behind. The guard
 * now keeps at most risk.order.maxLevels quotes per side, those nearest the touch (by price: the
 * highest bids, the lowest asks; at one price the lower level first), and drops the rest with one
 * `invalid_quote` decision per side (detail levelCap, quotes, dropped) instead of one per rung.
 */
describe("RiskGuard.filter: more quotes on a side than risk.order.maxLevels", () => {
  const touch = () => ({ ...ctx(), bestBidMicro: px("0.20"), bestAskMicro: px("0.80") });
  const cents = (c: number) => (c / 100).toFixed(2);
  /** n bids from 0.79 down (level i at 0.79 − i/100) and m asks from 0.21 up, of 5 shares. */
  const ladder = (n: number, m: number): DesiredQuote[] => [
    ...Array.from({ length: n }, (_, i) => q("buy", cents(79 - i), 5, i)),
    ...Array.from({ length: m }, (_, i) => q("sell", cents(81 + i), 5, i)),
  ];
  const guard = (maxLevels?: number) =>
    new RiskGuard(smallConfig(maxLevels === undefined ? {} : { order: { maxLevels } }));
  const bidTouch = { ...ctx(), bestBidMicro: px("0.10"), bestAskMicro: px("0.90") };

  it("keeps the levels nearest the touch, one invalid_quote per side for the rest", () => {
    const desired = [
      ...Array.from({ length: 15 }, (_, i) => q("buy", cents(80 - i), 5, i)),
      ...Array.from({ length: 12 }, (_, i) => q("sell", cents(81 + i), 5, i)),
    ];
    const r = guard(10).filter(bidTouch, desired, 0);
    expect(r.allowed.filter((x) => x.side === "buy").map((x) => x.level)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(r.allowed.filter((x) => x.side === "sell").map((x) => x.level)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(r.decisions.map((d) => `${d.reason} ${d.action} ${d.side} L${d.level}`)).toEqual([
      "invalid_quote drop buy L10",
      "invalid_quote drop sell L10",
    ]);
    expect(r.decisions[0]?.detail).toMatchObject({ price: "0.7", levelCap: 10, quotes: 15, dropped: 5 });
    expect(r.decisions[1]?.detail).toMatchObject({ price: "0.91", levelCap: 10, quotes: 12, dropped: 2 });
  });

  it("nearest the touch by price, whatever the levels are numbered", () => {
    // Level 0 is the farthest here (a ladder numbered the wrong way round).
    const desired = Array.from({ length: 4 }, (_, i) => q("buy", cents(40 + i), 5, i));
    const r = guard(2).filter(bidTouch, desired, 0);
    expect(r.allowed.map((x) => x.priceMicro)).toEqual([px("0.42"), px("0.43")]);
    expect(r.decisions).toHaveLength(1);
    expect(r.decisions[0]).toMatchObject({ side: "buy", level: 1, detail: { price: "0.41", dropped: 2 } });
  });

  it("at one price, the lower level is kept", () => {
    const desired = [q("sell", "0.60", 5, 3), q("sell", "0.60", 5, 1), q("sell", "0.60", 5, 2)];
    const r = guard(1).filter(bidTouch, desired, 0);
    expect(r.allowed).toEqual([desired[1]]);
    expect(r.decisions[0]).toMatchObject({ side: "sell", level: 2, detail: { quotes: 3, dropped: 2 } });
  });

  it("a later duplicate of a level takes no place under the cap (it is dropped as one)", () => {
    const desired = [...ladder(3, 0), q("buy", "0.79", 5, 0)];
    const r = guard(3).filter(touch(), desired, 0);
    expect(r.allowed).toEqual(desired.slice(0, 3));
    expect(r.decisions).toHaveLength(1);
    expect(r.decisions[0]?.detail).toMatchObject({ duplicateOf: "0.79" });
  });

  it("within the cap: nothing decided, the same array of quotes", () => {
    const desired = ladder(10, 10);
    expect(guard(10).filter(touch(), desired, 0)).toEqual({ allowed: desired, decisions: [] });
  });

  it("defaults to 10 levels per side", () => {
    const r = new RiskGuard(parseRiskConfig(SMALL_RISK_SETTINGS)).filter(touch(), ladder(11, 3), 0);
    expect(r.allowed).toHaveLength(13);
    expect(r.decisions.map((d) => `${d.side} L${d.level} ${d.detail.levelCap}`)).toEqual(["buy L10 10"]);
    expect(parseRiskConfig({}).order.maxLevels).toBe(10);
  });

  it("refuses a maxLevels that is not an integer in [1, 1000], naming the field", () => {
    for (const bad of [0, 1001, 2.5, "10"]) {
      expect(() => parseRiskConfig({ order: { maxLevels: bad } })).toThrow(
        /order\.maxLevels: must be an integer in \[1, 1000\]/,
      );
    }
  });
});
