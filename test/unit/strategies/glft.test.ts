import { describe, expect, it } from "vitest";
import { glft, glftCoefficients, glftDepths } from "../../../strategies/glft.js";
import { book, compact, context, issuesOf, M, market } from "./helpers.js";

// Worked example: γ = ξ = 2, k = 100, A = 0.01 fills/s, Δ = 1 lot, σ = 0.001/√s, Q = 5 lots, lot = 10 shares.
// c1 = (1/(γΔ))·ln(1 + γΔ/k) = ½·ln(1.02) = ½ · 0.0198026273 = 0.0099013136
// c2 = √( γ/(2AΔk) · (1 + γΔ/k)^(k/(γΔ) + 1) ) = √( 2/(2·0.01·1·100) · 1.02^51 ) = √(1 · 2.7454198) = 1.6569308
// half-spread = c1 + (Δ/2)·σ·c2 = 0.0099013136 + 0.5·0.001·1.6569308 = 0.0107297791
// skew = σ·c2 = 0.0016569308 per lot
const P = { gamma: 2, k: 100, A: 0.01, maxInventory: 5, orderSize: "10" };
const params = (extra: Record<string, unknown> = {}) => glft.parseParams({ ...P, ...extra });

// book 0.49 / 0.51 → mid 0.50; tick 0.0001.
const ctx = (inventoryShares: number, over = {}) =>
  context(book([[0.49, 50]], [[0.51, 50]]), {
    market: market({ tickMicro: 100 }),
    inventory: BigInt(inventoryShares) * M,
    volatility: 0.001,
    ...over,
  });

describe("glft: coefficients and depths", () => {
  it("c1 and c2", () => {
    const { c1, c2 } = glftCoefficients(2, 100, 0.01, 1);
    expect(c1).toBeCloseTo(0.0099013136, 10);
    expect(c2).toBeCloseTo(1.6569308, 6);
  });

  it("c2 keeps its limit when γΔ/k is tiny: (1 + x)^(1/x + 1) → e, not 1", () => {
    // (1 + 1e-17) is 1 in a double, so the power read 1 and c2 came out √e ≈ 1.65× too small.
    const gamma = 1e-15;
    const { c2 } = glftCoefficients(gamma, 100, 0.01, 1);
    expect(c2 / Math.sqrt((gamma / (2 * 0.01 * 100)) * Math.E)).toBeCloseTo(1, 9);
  });

  it("depths: half-spread ± skew·q", () => {
    // {c1 0.01, c2 2}, σ 0.001, Δ 1: half-spread = 0.01 + 0.5·0.001·2 = 0.011, skew = 0.002
    // q = 3: bid 0.011 + 0.006 = 0.017; ask 0.011 − 0.006 = 0.005
    const d = glftDepths({ c1: 0.01, c2: 2 }, 0.001, 1, 3);
    expect(d.bid).toBeCloseTo(0.017, 15);
    expect(d.ask).toBeCloseTo(0.005, 15);
  });

  it("equals Guéant's δ^b = c1 + ((2q + Δ)/2)·σ·c2, δ^a = c1 − ((2q − Δ)/2)·σ·c2 for any Δ", () => {
    // Δ = 2, q = 3, c1 0.01, c2 2, σ 0.001: δ^b = 0.01 + (8/2)·0.002 = 0.018; δ^a = 0.01 − (4/2)·0.002 = 0.006
    const d = glftDepths({ c1: 0.01, c2: 2 }, 0.001, 2, 3);
    expect(d.bid).toBeCloseTo(0.018, 15);
    expect(d.ask).toBeCloseTo(0.006, 15);
  });
});

describe("glft: quotes", () => {
  it("long 3 lots", () => {
    // bid depth 0.0107298 + 3·0.0016569 = 0.0157006 → 0.4842994 → floor 0.4842
    // ask depth 0.0107298 − 0.0049708 = 0.0057590 → 0.5057590 → ceil 0.5058
    expect(compact(glft.quote(ctx(30), params()))).toEqual([
      ["buy", 0, 0.4842, 10],
      ["sell", 0, 0.5058, 10],
    ]);
  });

  it("flat", () => {
    // 0.5 ∓ 0.0107298 = 0.4892702 → 0.4892, 0.5107298 → 0.5108
    expect(compact(glft.quote(ctx(0), params()))).toEqual([
      ["buy", 0, 0.4892, 10],
      ["sell", 0, 0.5108, 10],
    ]);
  });

  it("short 2 lots", () => {
    // bid 0.5 − (0.0107298 − 0.0033139) = 0.4925841 → 0.4925; ask 0.5 + 0.0140436 = 0.5140436 → 0.5141
    expect(compact(glft.quote(ctx(-20), params()))).toEqual([
      ["buy", 0, 0.4925, 10],
      ["sell", 0, 0.5141, 10],
    ]);
  });

  it("bounded inventory: a bid only while one more lot fits under Q", () => {
    // q = 4: 4 + 1 ≤ 5 → bid 0.5 − (0.0107298 + 0.0066277) = 0.4826425 → 0.4826; ask 0.5041021 → 0.5042
    expect(compact(glft.quote(ctx(40), params()))).toEqual([
      ["buy", 0, 0.4826, 10],
      ["sell", 0, 0.5042, 10],
    ]);
    // q = 4.5: 5.5 > 5 → no bid; ask 0.5 + 0.0107298 − 4.5·0.0016569 = 0.5032736 → 0.5033
    expect(compact(glft.quote(ctx(45), params()))).toEqual([["sell", 0, 0.5033, 10]]);
    // q = +5 → no bid; ask 0.5 + 0.0107298 − 0.0082847 = 0.5024451 → 0.5025
    expect(compact(glft.quote(ctx(50), params()))).toEqual([["sell", 0, 0.5025, 10]]);
    // q = −5 → no ask; bid 0.5 − 0.0107298 + 0.0082847 = 0.4975549 → 0.4975
    expect(compact(glft.quote(ctx(-50), params()))).toEqual([["buy", 0, 0.4975, 10]]);
  });

  it("a fixed σ replaces the engine's estimate", () => {
    // σ = 0 : depths are c1 = 0.0099013 on both sides whatever q → 0.4900987 → 0.4900; 0.5099013 → 0.5100
    expect(compact(glft.quote(ctx(30, { volatility: undefined }), params({ sigma: 0 })))).toEqual([
      ["buy", 0, 0.49, 10],
      ["sell", 0, 0.51, 10],
    ]);
  });

  it("never crosses the touch", () => {
    // book 0.4999 / 0.5000 (mid 0.49995), σ = 0.01, q = −4: skew = 0.01·1.6569308 = 0.0165693
    // half-spread = 0.0099013 + 0.5·0.0165693 = 0.0181860
    // bid depth = 0.0181860 − 4·0.0165693 = −0.0480912 → bid 0.5480412 ≥ best ask 0.5 → clamped to 0.4999
    // ask depth = 0.0181860 + 0.0662772 = 0.0844632 → ask 0.5844132 → ceil 0.5845
    const tight = context(book([[0.4999, 5]], [[0.5, 5]]), {
      market: market({ tickMicro: 100 }),
      inventory: -40n * M,
      volatility: 0.01,
    });
    expect(compact(glft.quote(tight, params()))).toEqual([
      ["buy", 0, 0.4999, 10],
      ["sell", 0, 0.5845, 10],
    ]);
  });
});

describe("glft: prices beyond [tick, 1 − tick]", () => {
  it("a bid below the tick is skipped, not raised to it; an ask through the touch is clamped", () => {
    // σ = 0.4, q = +1: skew = 0.4·1.6569308 = 0.6627723, half-spread = 0.0099013 + 0.3313862 = 0.3412875
    // bid depth 1.0040598 → bid −0.5040598 → none (0.0001 would buy far above the model's price)
    // ask depth −0.3214848 → ask 0.1785152 ≤ best bid 0.49 → clamped up to 0.4901
    expect(compact(glft.quote(ctx(10, { volatility: 0.4 }), params()))).toEqual([["sell", 0, 0.4901, 10]]);
  });

  it("an ask above 1 − tick is skipped, not lowered to it", () => {
    // q = −1: bid depth −0.3214848 → bid 0.8214848 ≥ best ask 0.51 → clamped down to 0.5099;
    // ask depth 1.0040598 → ask 1.5040598 → none
    expect(compact(glft.quote(ctx(-10, { volatility: 0.4 }), params()))).toEqual([["buy", 0, 0.5099, 10]]);
  });
});

describe("glft: no data → no quote", () => {
  it.each([
    ["no σ", ctx(0, { volatility: undefined })],
    ["empty book", context(book([], []), { volatility: 0.001 })],
    ["stale book", ctx(0, { bookState: "stale" })],
    ["resyncing book", ctx(0, { bookState: "resyncing" })],
    ["not quotable", ctx(0, { quotable: false })],
  ])("%s → []", (_, c) => {
    expect(glft.quote(c, params())).toEqual([]);
  });
});

describe("glft: Δ", () => {
  it("refuses Δ ≠ 1: each quote is one lot, so a Δ-lot model would misprice it and stop bidding a lot early", () => {
    // With Δ = 2, Q = 5 and q = 3.5 a one-lot bid fill leads to 4.5 ≤ Q, yet q + Δ = 5.5 > Q would drop the bid.
    expect(issuesOf(() => glft.parseParams({ ...P, delta: 2 }))).toEqual([
      "delta: must be 1 (each quote is one lot of orderSize); for Δ-lot quotes set orderSize × Δ, gamma × Δ and maxInventory ÷ Δ",
    ]);
    expect(issuesOf(() => glft.parseParams({ ...P, delta: 0.5 }))).toHaveLength(1);
    expect(issuesOf(() => glft.parseParams({ ...P, maxInventory: 0 }))).toEqual([
      "maxInventory: must be ≥ 1 (room for one fill)",
    ]);
    expect(issuesOf(() => glft.parseParams({ ...P, delta: 1 }))).toEqual([]);
  });

  it("the recipe is exact: Δ-lot quotes equal one-lot quotes of Δ·orderSize with γ·Δ and Q/Δ", () => {
    // c1 depends on γΔ only; c2 scales by Δ when γ → γΔ and Δ → 1, and q → q/Δ, so σ·c2·q is unchanged.
    const general = glftCoefficients(2, 100, 0.01, 3);
    const unit = glftCoefficients(6, 100, 0.01, 1);
    expect(unit.c1).toBeCloseTo(general.c1, 14);
    expect(unit.c2).toBeCloseTo(3 * general.c2, 12);
    const a = glftDepths(general, 0.001, 3, 4.5);
    const b = glftDepths(unit, 0.001, 1, 1.5);
    expect(b.bid).toBeCloseTo(a.bid, 14);
    expect(b.ask).toBeCloseTo(a.ask, 14);
  });
});

describe("glft: parameters", () => {
  it("reads the parameters and refuses what makes no sense", () => {
    expect(params()).toEqual({
      gamma: 2,
      k: 100,
      A: 0.01,
      maxInventory: 5,
      orderSizeMicro: 10n * M,
      sigma: undefined,
    });
    expect(issuesOf(() => glft.parseParams({ ...P, A: 0, maxInventory: 0.5, delta: "1", xi: 2 }))).toEqual([
      "A: must be > 0",
      'delta: must be a JSON number: 1, not "1"',
      "maxInventory: must be ≥ 1 (room for one fill)",
      "xi: unknown parameter",
    ]);
  });
});
