import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { RiskDecision } from "../../../src/risk/decision.js";
import { checkQuote } from "../../../src/risk/quote-limits.js";
import { market, q, sh, smallConfig } from "./helpers.js";

/** Order limits: max 50 shares, max 30 USDC notional; market tick 0.01, minimum 5 shares. */
const clip = smallConfig().order;
const drop = smallConfig({ order: { oversize: "drop" } }).order;

type Row = [
  name: string,
  quote: DesiredQuote,
  policy: typeof clip,
  expected: bigint | undefined,
  reasons: string[],
  minShares?: number,
];

const rows: Row[] = [
  ["a quote within every limit passes untouched", q("buy", "0.50", 40), clip, sh(40), []],
  ["the lowest and highest band prices pass", q("sell", "0.99", 30), clip, sh(30), []],
  [
    "a side that is neither buy nor sell",
    { ...q("buy", "0.5", 10), side: "hold" as "buy" },
    clip,
    undefined,
    ["invalid_quote"],
  ],
  [
    "a fractional micro-unit price",
    { ...q("buy", "0.5", 10), priceMicro: 500_000.5 },
    clip,
    undefined,
    ["invalid_quote"],
  ],
  ["a zero size", { ...q("buy", "0.5", 10), sizeMicro: 0n }, clip, undefined, ["invalid_quote"]],
  ["a negative size", { ...q("buy", "0.5", 10), sizeMicro: -sh(10) }, clip, undefined, ["invalid_quote"]],
  ["a negative level", { ...q("buy", "0.5", 10), level: -1 }, clip, undefined, ["invalid_quote"]],
  ["a price between ticks", q("buy", "0.505", 10), clip, undefined, ["price_off_tick"]],
  ["a price of 0", q("buy", "0", 10), clip, undefined, ["price_out_of_band"]],
  ["a price of 1", q("sell", "1", 10), clip, undefined, ["price_out_of_band"]],
  [
    "a negative price",
    { ...q("buy", "0.5", 10), priceMicro: -10_000 },
    clip,
    undefined,
    ["price_out_of_band"],
  ],
  ["a size below the market minimum", q("buy", "0.5", "4.999999"), clip, undefined, ["size_below_min"]],
  [
    "oversize, clip policy: clipped to the maximum",
    q("buy", "0.10", 80),
    clip,
    sh(50),
    ["order_size_clipped"],
  ],
  ["oversize, drop policy: dropped", q("buy", "0.10", 80), drop, undefined, ["order_size_exceeded"]],
  [
    "oversize with a maximum below the market minimum: dropped",
    q("buy", "0.10", 70),
    clip,
    undefined,
    ["order_size_exceeded"],
    60,
  ],
  // 0.90 × 50 = 45 USDC > 30: the largest fit is ⌊30 / 0.9⌋ at 6 decimals = 33.333333 shares.
  ["over the notional, clip policy", q("buy", "0.90", 50), clip, 33_333_333n, ["notional_clipped"]],
  ["over the notional, drop policy", q("buy", "0.90", 50), drop, undefined, ["notional_exceeded"]],
  // 100 → 50 shares, then 0.99 × 50 = 49.5 USDC → ⌊30 / 0.99⌋ = 30.303030 shares.
  [
    "size then notional clipped",
    q("sell", "0.99", 100),
    clip,
    30_303_030n,
    ["order_size_clipped", "notional_clipped"],
  ],
  [
    "notional fit below the minimum: dropped",
    q("buy", "0.90", 45),
    clip,
    undefined,
    ["notional_exceeded"],
    40,
  ],
  ["exactly the notional limit passes", q("buy", "0.60", 50), clip, sh(50), []],
];

describe("checkQuote", () => {
  it.each(rows)("%s", (_name, quote, policy, expected, reasons, minShares) => {
    const m = market(minShares === undefined ? {} : { minSizeMicro: sh(minShares) });
    const decisions: RiskDecision[] = [];
    const out = checkQuote(quote, m, policy, decisions);
    expect(out?.sizeMicro).toBe(expected);
    if (out !== undefined) {
      expect(out).toMatchObject({ side: quote.side, level: quote.level, priceMicro: quote.priceMicro });
    }
    expect(decisions.map((d) => d.reason)).toEqual(reasons);
    for (const d of decisions) {
      expect(d).toMatchObject({ scope: "quote", tokenId: m.tokenId, marketId: m.marketId, side: quote.side });
      expect(d.action).toBe(d.reason.endsWith("_clipped") ? "clip" : "drop");
    }
  });

  it("says what it did in human units", () => {
    const decisions: RiskDecision[] = [];
    checkQuote(q("buy", "0.90", 50), market(), clip, decisions);
    expect(decisions[0]?.detail).toEqual({ price: "0.9", size: "50", limit: "30", to: "33.333333" });
  });
});
