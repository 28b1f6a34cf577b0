import type { DesiredQuote } from "../src/core/trading.js";
import { ParamReader } from "./params.js";
import { inventoryLots, modelQuotes, quotableTouch } from "./quoting.js";
import type { Strategy, StrategyContext } from "./types.js";

/** Parameters of `glft`. Prices in whole units, time in seconds, inventory in lots of `orderSize`. */
export interface GlftParams {
  /** Risk aversion γ (= ξ), per price unit per lot (> 0). */
  readonly gamma: number;
  /** Decay k of the fill intensity A·e^(−kδ), per price unit (> 0). */
  readonly k: number;
  /** Intensity A at zero depth, fills per second (> 0). */
  readonly A: number;
  /** Inventory bound Q, in lots (≥ 1: room for one fill). */
  readonly maxInventory: number;
  /** Size of each quote, micro-units of shares; the lot that q is counted in. */
  readonly orderSizeMicro: bigint;
  /** Fixed σ (price units per √s) instead of the engine's online estimate. */
  readonly sigma: number | undefined;
}

/**
 * Δ, the size of one fill in lots, is fixed at 1 because every quote is one lot (`orderSize`) and
 * a fill can never exceed its order. Guéant's Δ-share quotes are the same model re-scaled: a Δ-lot
 * quote with (orderSize, γ, Q) prices exactly like a one-lot quote with (Δ·orderSize, Δ·γ, Q/Δ)
 * (c1 depends on γΔ only, c2 scales by Δ, q by 1/Δ), which is how hftbacktest fixes Δ = 1 and
 * counts q in order quantities. A free Δ would add nothing but a way to price 1-lot quotes as
 * Δ-lot ones (and stop bidding Δ − 1 lots before the bound).
 */
const DELTA = 1;

/**
 * Validates `{ gamma, k, A, delta?: 1, maxInventory, orderSize: "10", sigma? }`; `delta` is
 * accepted only as 1 (see DELTA), with the re-scaling recipe in the issue otherwise.
 * @example parseGlftParams({ gamma: 2, k: 100, A: 0.01, maxInventory: 5, orderSize: "10" })
 */
export function parseGlftParams(raw: unknown): GlftParams {
  const r = new ParamReader(raw);
  const params: GlftParams = {
    gamma: r.number("gamma", { gt: 0 }),
    k: r.number("k", { gt: 0 }),
    A: r.number("A", { gt: 0 }),
    maxInventory: r.number("maxInventory", {}),
    orderSizeMicro: r.micro("orderSize"),
    sigma: r.optionalNumber("sigma", { min: 0 }),
  };
  const delta = r.optionalNumber("delta", {});
  if (delta !== undefined && Number.isFinite(delta) && delta !== DELTA) {
    r.issue(
      "delta",
      "must be 1 (each quote is one lot of orderSize); for Δ-lot quotes set orderSize × Δ, gamma × Δ and maxInventory ÷ Δ",
    );
  }
  // NaN (already reported) compares false.
  if (params.maxInventory < DELTA) r.issue("maxInventory", "must be ≥ 1 (room for one fill)");
  r.finish("glft");
  return params;
}

/**
 * The GLFT coefficients with ξ = γ:
 * c1 = (1/(ξΔ))·ln(1 + ξΔ/k),  c2 = √( γ/(2AΔk) · (1 + ξΔ/k)^(k/(ξΔ) + 1) ).
 * Units: c1 in price units; c2 in √seconds (so σ·c2 is a price).
 * @example glftCoefficients(2, 100, 0.01, 1) // { c1: 0.0099013…, c2: 1.65692… }
 */
export function glftCoefficients(
  gamma: number,
  k: number,
  A: number,
  delta: number,
): { c1: number; c2: number } {
  const x = gamma * delta;
  return {
    c1: Math.log1p(x / k) / x,
    // (1 + x/k)^(k/x + 1) through log1p: for a tiny x/k, 1 + x/k rounds to 1 in a double and the
    // power to 1 instead of its limit e.
    c2: Math.sqrt((gamma / (2 * A * delta * k)) * Math.exp((k / x + 1) * Math.log1p(x / k))),
  };
}

/**
 * Depths of the optimal quotes below and above the mid for inventory q (lots):
 * half-spread = c1 + (Δ/2)·σ·c2, skew = σ·c2;
 * bid depth = half-spread + skew·q, ask depth = half-spread − skew·q.
 * This is Guéant's δ^b = c1 + ((2q + Δ)/2)·σ·c2, δ^a = c1 − ((2q − Δ)/2)·σ·c2 with q and Δ in lots.
 * @example glftDepths({ c1: 0.01, c2: 2 }, 0.001, 1, 3) // { bid: 0.017, ask: 0.005 }
 */
export function glftDepths(
  coeff: { c1: number; c2: number },
  sigma: number,
  delta: number,
  q: number,
): { bid: number; ask: number } {
  const halfSpread = coeff.c1 + (delta / 2) * sigma * coeff.c2;
  const skew = sigma * coeff.c2;
  return { bid: halfSpread + skew * q, ask: halfSpread - skew * q };
}

/**
 * Guéant–Lehalle–Fernandez-Tapia quotes for bounded inventory: bid = mid − bid depth,
 * ask = mid + ask depth (glftDepths), with Δ = 1 lot, bid rounded down and ask up onto the tick grid,
 * never through the opposite best; a side whose price lies beyond [tick, 1 − tick] is skipped
 * (modelQuotes). The bound: a bid only while one more one-lot fill keeps q + 1 ≤ Q, an ask only
 * while q − 1 ≥ −Q (so at q = +Q there is no bid, at −Q no ask).
 *
 * Sources: O. Guéant, C.-A. Lehalle, J. Fernandez-Tapia, "Dealing with the inventory risk: a solution
 * to the market making problem", Mathematics and Financial Economics 7(4), 2013 (the closed-form
 * asymptotic quotes); O. Guéant, "Optimal market making", Applied Mathematical Finance 24(2), 2017
 * (the general ξ, Δ version used here); the same formulas as hftbacktest's GLFT tutorial
 * (`compute_coeff`, half_spread = c1 + Δ/2·σ·c2, skew = σ·c2, q normalised by the order quantity).
 * @example
 * // mid 0.50, q = 3 lots, γ = 2, k = 100, A = 0.01/s, Δ = 1, σ = 0.001/√s, tick 0.0001 → bid 0.4842, ask 0.5058
 * glftQuotes(ctx, params)
 */
export function glftQuotes(ctx: StrategyContext, p: GlftParams): DesiredQuote[] {
  const touch = quotableTouch(ctx);
  const mid = ctx.book.mid();
  const sigma = p.sigma ?? ctx.volatility;
  if (touch === undefined || mid === undefined) return [];
  if (sigma === undefined || !Number.isFinite(sigma) || sigma < 0) return [];
  const s = mid.toNumber();
  const q = inventoryLots(ctx.inventory, p.orderSizeMicro);
  const depth = glftDepths(glftCoefficients(p.gamma, p.k, p.A, DELTA), sigma, DELTA, q);
  const bid = q + DELTA <= p.maxInventory ? (s - depth.bid) * 1_000_000 : undefined;
  const ask = q - DELTA >= -p.maxInventory ? (s + depth.ask) * 1_000_000 : undefined;
  return modelQuotes(ctx, touch, bid, ask, p.orderSizeMicro);
}

/** The `glft` strategy. */
export const glft: Strategy<GlftParams> = {
  name: "glft",
  parseParams: parseGlftParams,
  quote: glftQuotes,
  quoteSizes: (p) => [{ field: "orderSize", sizeMicro: p.orderSizeMicro }],
};
