import { describe, expect, it } from "vitest";
import { avellanedaStoikov, avellanedaStoikovModel } from "../../../strategies/avellaneda-stoikov.js";
import { book, compact, context, issuesOf, M, market, NOW } from "./helpers.js";

// Worked example, prices in whole units, time in seconds:
// γ = 2, k = 100, σ = 0.001/√s, T − t = 3600 s, orderSize 10 shares.
// γσ²(T − t) = 2 · 1e-6 · 3600 = 0.0072
// (2/γ)·ln(1 + γ/k) = 1 · ln(1.02) = 0.0198026273
// δ = 0.0072 + 0.0198026273 = 0.0270026273, δ/2 = 0.0135013136
const GAMMA = 2;
const K = 100;
const SIGMA = 0.001;

const params = (extra: Record<string, unknown> = {}) =>
  avellanedaStoikov.parseParams({ gamma: GAMMA, k: K, orderSize: "10", ...extra });

// book 0.49 / 0.51 → s = 0.50; tick 0.001; the close one hour ahead.
const ctx = (inventoryShares: number, over = {}) =>
  context(book([[0.49, 50]], [[0.51, 50]]), {
    market: market({ tickMicro: 1_000 }),
    inventory: BigInt(inventoryShares) * M,
    volatility: SIGMA,
    ...over,
  });

describe("avellaneda-stoikov: the model", () => {
  it("reservation price and spread", () => {
    // q = 3: r = 0.5 − 3 · 0.0072 = 0.4784
    const m = avellanedaStoikovModel({ mid: 0.5, q: 3, gamma: GAMMA, k: K, sigma: SIGMA, tau: 3600 });
    expect(m.reservation).toBeCloseTo(0.4784, 12);
    expect(m.spread).toBeCloseTo(0.0270026273, 10);
  });

  it("the spread shrinks to (2/γ)·ln(1 + γ/k) at the horizon", () => {
    const m = avellanedaStoikovModel({ mid: 0.5, q: 3, gamma: GAMMA, k: K, sigma: SIGMA, tau: 0 });
    expect(m.reservation).toBe(0.5);
    expect(m.spread).toBeCloseTo(0.0198026273, 10);
  });
});

describe("avellaneda-stoikov: quotes on the tick grid", () => {
  it("long 3 lots: quotes shift down around r", () => {
    // bid 0.4784 − 0.0135013 = 0.4648987 → floor 0.464; ask 0.4784 + 0.0135013 = 0.4919013 → ceil 0.492
    expect(compact(avellanedaStoikov.quote(ctx(30), params()))).toEqual([
      ["buy", 0, 0.464, 10],
      ["sell", 0, 0.492, 10],
    ]);
  });

  it("flat: symmetric around the mid", () => {
    // 0.5 ∓ 0.0135013 = 0.4864987 → 0.486, 0.5135013 → 0.514
    expect(compact(avellanedaStoikov.quote(ctx(0), params()))).toEqual([
      ["buy", 0, 0.486, 10],
      ["sell", 0, 0.514, 10],
    ]);
  });

  it("short 2 lots: quotes shift up (q = −20/10 = −2, r = 0.5 + 2·0.0072 = 0.5144)", () => {
    // bid 0.5144 − 0.0135013 = 0.5008987 → 0.500; ask 0.5279013 → 0.528
    expect(compact(avellanedaStoikov.quote(ctx(-20), params()))).toEqual([
      ["buy", 0, 0.5, 10],
      ["sell", 0, 0.528, 10],
    ]);
  });

  it("q is a real number of lots: 25 shares = 2.5 lots", () => {
    // r = 0.5 − 2.5·0.0072 = 0.482; bid 0.4684987 → 0.468; ask 0.4955013 → 0.496
    expect(compact(avellanedaStoikov.quote(ctx(25), params()))).toEqual([
      ["buy", 0, 0.468, 10],
      ["sell", 0, 0.496, 10],
    ]);
  });

  it("symmetric variant: same spread, centred on the mid whatever the inventory", () => {
    expect(compact(avellanedaStoikov.quote(ctx(30), params({ variant: "symmetric" })))).toEqual([
      ["buy", 0, 0.486, 10],
      ["sell", 0, 0.514, 10],
    ]);
  });

  it("never crosses the touch: clamps to one tick inside the opposite best", () => {
    // q = −10: r = 0.5 + 0.072 = 0.572; bid 0.5585 ≥ best ask 0.51 → 0.509; ask 0.5855 → 0.586
    expect(compact(avellanedaStoikov.quote(ctx(-100), params()))).toEqual([
      ["buy", 0, 0.509, 10],
      ["sell", 0, 0.586, 10],
    ]);
    // q = +10: r = 0.428; bid 0.4145 → 0.414; ask 0.4415 ≤ best bid 0.49 → 0.491
    expect(compact(avellanedaStoikov.quote(ctx(100), params()))).toEqual([
      ["buy", 0, 0.414, 10],
      ["sell", 0, 0.491, 10],
    ]);
  });

  it("skips a bid below the tick instead of raising it there (the model values one more lot below 0)", () => {
    // q = +100: r = 0.5 − 0.72 = −0.22 (the model's value of one more share is below zero);
    // bid −0.2335 → none (raising it to 0.001 would keep buying as the market collapses);
    // ask −0.2065 → clamped up to one tick above the best bid: 0.491, a better price than the model's
    expect(compact(avellanedaStoikov.quote(ctx(1000), params()))).toEqual([["sell", 0, 0.491, 10]]);
  });

  it("skips an ask above 1 − tick instead of lowering it there", () => {
    // q = −100: r = 0.5 + 0.72 = 1.22; bid 1.2055 → clamped down to one tick below the best ask: 0.509;
    // ask 1.2335 → none (0.999 would sell below the price the model asks)
    expect(compact(avellanedaStoikov.quote(ctx(-1000), params()))).toEqual([["buy", 0, 0.509, 10]]);
  });

  it("a close months away: both model prices lie beyond the band, so no quote at all", () => {
    // 90 days: γσ²(T − t) = 2 · 1e-6 · 7 776 000 = 15.552 → bid ≈ 0.5 − 7.79, ask ≈ 0.5 + 7.79
    const far = ctx(0, { market: market({ tickMicro: 1_000, closesAtMs: NOW + 90 * 86_400_000 }) });
    expect(avellanedaStoikov.quote(far, params())).toEqual([]);
  });

  it("at the edge of the band: the bid rests at the touch, the ask beyond 1 − tick is skipped", () => {
    // book 0.98 / 1.00, tick 0.01: bids ≤ min(0.99, one tick below 1.00) = 0.99.
    // q = −100: r = 1.22 → bid 1.2055 clamped down to 0.99; ask 1.2335 > 0.99 → none
    const edge = context(book([[0.98, 5]], [[1, 5]]), { inventory: -1000n * M, volatility: SIGMA });
    expect(compact(avellanedaStoikov.quote(edge, params()))).toEqual([["buy", 0, 0.99, 10]]);
  });

  it("uses T − t to the close: half the time left halves the inventory term", () => {
    // T − t = 1800 s: γσ²τ = 0.0036, δ = 0.0234026273, δ/2 = 0.0117013
    // q = 3: r = 0.5 − 0.0108 = 0.4892; bid 0.4774987 → 0.477; ask 0.5009013 → 0.501
    const half = ctx(30, { nowMs: NOW + 1_800_000 });
    expect(compact(avellanedaStoikov.quote(half, params()))).toEqual([
      ["buy", 0, 0.477, 10],
      ["sell", 0, 0.501, 10],
    ]);
  });

  it("a fixed horizon and a fixed σ replace the close and the estimate", () => {
    // horizonSeconds 1800 and sigma 0.001 with no close and no estimate: same as the case above
    const c = ctx(30, { volatility: undefined, market: market({ tickMicro: 1_000, closesAtMs: undefined }) });
    expect(compact(avellanedaStoikov.quote(c, params({ horizonSeconds: 1800, sigma: 0.001 })))).toEqual([
      ["buy", 0, 0.477, 10],
      ["sell", 0, 0.501, 10],
    ]);
    // a fixed σ = 0.002 wins over the engine's 0.001: γσ²τ = 2·4e-6·3600 = 0.0288, q = 0 →
    // δ/2 = (0.0288 + 0.0198026)/2 = 0.0243013 → bid 0.4756987 → 0.475; ask 0.5243013 → 0.525
    expect(compact(avellanedaStoikov.quote(ctx(0), params({ sigma: 0.002 })))).toEqual([
      ["buy", 0, 0.475, 10],
      ["sell", 0, 0.525, 10],
    ]);
  });
});

describe("avellaneda-stoikov: no data → no quote", () => {
  it.each([
    ["no σ yet", ctx(0, { volatility: undefined })],
    ["no close and no fixed horizon", ctx(0, { market: market({ closesAtMs: undefined }) })],
    ["past the close", ctx(0, { nowMs: NOW + 3_600_000 })],
    ["empty book", context(book([], []), { volatility: SIGMA })],
    ["one-sided book", context(book([[0.49, 1]], []), { volatility: SIGMA })],
    ["stale book", ctx(0, { bookState: "stale" })],
    ["not quotable", ctx(0, { quotable: false })],
    ["order size below the market minimum", ctx(0, { market: market({ minSizeMicro: 11n * M }) })],
  ])("%s → []", (_, c) => {
    expect(avellanedaStoikov.quote(c, params())).toEqual([]);
  });
});

describe("avellaneda-stoikov: parameters", () => {
  it("defaults and strictness", () => {
    expect(params()).toEqual({
      gamma: 2,
      k: 100,
      orderSizeMicro: 10n * M,
      sigma: undefined,
      horizonSeconds: undefined,
      variant: "inventory",
    });
    expect(
      issuesOf(() =>
        avellanedaStoikov.parseParams({
          gamma: 0,
          k: "100",
          sigma: -1,
          horizonSeconds: 0,
          variant: "x",
          T: 1,
        }),
      ),
    ).toEqual([
      "gamma: must be > 0",
      'k: must be a JSON number: 100, not "100"',
      "orderSize: required (a decimal string)",
      "sigma: must be ≥ 0",
      "horizonSeconds: must be > 0",
      'variant: must be one of "inventory", "symmetric"',
      "T: unknown parameter",
    ]);
  });
});
