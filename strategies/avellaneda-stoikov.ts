import type { DesiredQuote } from "../src/core/trading.js";
import { ParamReader } from "./params.js";
import { inventoryLots, modelQuotes, quotableTouch } from "./quoting.js";
import type { Strategy, StrategyContext } from "./types.js";

/** Parameters of `avellaneda-stoikov`. */
export interface AvellanedaStoikovParams {
  /** Risk aversion γ, per price unit per lot (> 0). */
  readonly gamma: number;
  /** Order-book liquidity k of the fill intensity A·e^(−kδ), per price unit (> 0). */
  readonly k: number;
  /** Size of each quote, micro-units of shares; also the lot that inventory q is counted in. */
  readonly orderSizeMicro: bigint;
  /** Fixed σ (price units per √s) instead of the engine's online estimate. */
  readonly sigma: number | undefined;
  /** Fixed T − t in seconds instead of the time left to the market's close. */
  readonly horizonSeconds: number | undefined;
  /** `inventory`: quotes around the reservation price; `symmetric`: the same spread around the mid. */
  readonly variant: "inventory" | "symmetric";
}

const VARIANTS = ["inventory", "symmetric"] as const;

/**
 * Validates `{ gamma, k, orderSize: "10", sigma?, horizonSeconds?, variant?: "inventory" | "symmetric" }`.
 * @example parseAvellanedaStoikovParams({ gamma: 2, k: 100, orderSize: "10" })
 */
export function parseAvellanedaStoikovParams(raw: unknown): AvellanedaStoikovParams {
  const r = new ParamReader(raw);
  const params: AvellanedaStoikovParams = {
    gamma: r.number("gamma", { gt: 0 }),
    k: r.number("k", { gt: 0 }),
    orderSizeMicro: r.micro("orderSize"),
    sigma: r.optionalNumber("sigma", { min: 0 }),
    horizonSeconds: r.optionalNumber("horizonSeconds", { gt: 0 }),
    variant: r.choice("variant", VARIANTS, "inventory"),
  };
  r.finish("avellaneda-stoikov");
  return params;
}

/** Inputs of the model, in its own units: prices in whole units, time in seconds. */
export interface AvellanedaStoikovInput {
  /** Mid price s. */
  readonly mid: number;
  /** Inventory q in lots (signed). */
  readonly q: number;
  readonly gamma: number;
  readonly k: number;
  /** σ per √second. */
  readonly sigma: number;
  /** T − t in seconds. */
  readonly tau: number;
}

/**
 * Avellaneda & Stoikov (2008), "High-frequency trading in a limit order book", Quantitative
 * Finance 8(3), 2008 — its approximate (small-inventory) solution:
 * reservation price r = s − q·γ·σ²·(T − t); total spread δ = γ·σ²·(T − t) + (2/γ)·ln(1 + γ/k).
 * @example
 * avellanedaStoikovModel({ mid: 0.5, q: 3, gamma: 2, k: 100, sigma: 0.001, tau: 3600 })
 * // { reservation: 0.4784, spread: 0.0270026… }
 */
export function avellanedaStoikovModel(x: AvellanedaStoikovInput): { reservation: number; spread: number } {
  const risk = x.gamma * x.sigma * x.sigma * x.tau;
  return {
    reservation: x.mid - x.q * risk,
    spread: risk + (2 / x.gamma) * Math.log1p(x.gamma / x.k),
  };
}

/**
 * T − t in seconds: the fixed horizon when configured, else the time left to the market's close;
 * undefined when neither is known or the close has passed (the model has no horizon left).
 * @example timeToHorizonSeconds(ctx, undefined) // 3600 with the close one hour after ctx.nowMs
 */
export function timeToHorizonSeconds(ctx: StrategyContext, fixed: number | undefined): number | undefined {
  if (fixed !== undefined) return fixed;
  const close = ctx.market.closesAtMs;
  if (close === undefined || close <= ctx.nowMs) return undefined;
  return (close - ctx.nowMs) / 1_000;
}

/**
 * One bid and one ask (level 0) of `orderSize`: r ∓ δ/2 (or mid ∓ δ/2 in the symmetric variant),
 * bid rounded down and ask up onto the tick grid, clamped to [tick, 1 − tick] and never through the
 * opposite best. q = inventory / orderSize (a real number of lots). No quote without σ (neither a
 * fixed `sigma` nor the engine's estimate), without a horizon, or on a book that cannot be quoted.
 * @example
 * // mid 0.50, q = 3, γ = 2, k = 100, σ = 0.001/√s, 1 h to close, tick 0.001 → bid 0.464, ask 0.492
 * avellanedaStoikovQuotes(ctx, params)
 */
export function avellanedaStoikovQuotes(ctx: StrategyContext, p: AvellanedaStoikovParams): DesiredQuote[] {
  const touch = quotableTouch(ctx);
  const mid = ctx.book.mid();
  const sigma = p.sigma ?? ctx.volatility;
  const tau = timeToHorizonSeconds(ctx, p.horizonSeconds);
  if (touch === undefined || mid === undefined || tau === undefined) return [];
  if (sigma === undefined || !Number.isFinite(sigma) || sigma < 0) return [];
  const s = mid.toNumber();
  const q = inventoryLots(ctx.inventory, p.orderSizeMicro);
  const { reservation, spread } = avellanedaStoikovModel({ mid: s, q, gamma: p.gamma, k: p.k, sigma, tau });
  const centre = p.variant === "symmetric" ? s : reservation;
  const half = spread / 2;
  return modelQuotes(ctx, touch, (centre - half) * 1_000_000, (centre + half) * 1_000_000, p.orderSizeMicro);
}

/** The `avellaneda-stoikov` strategy. */
export const avellanedaStoikov: Strategy<AvellanedaStoikovParams> = {
  name: "avellaneda-stoikov",
  parseParams: parseAvellanedaStoikovParams,
  quote: avellanedaStoikovQuotes,
  quoteSizes: (p) => [{ field: "orderSize", sizeMicro: p.orderSizeMicro }],
};
