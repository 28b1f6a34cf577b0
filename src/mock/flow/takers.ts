import type { Address, Side } from "../../core/types.js";
import { WEI_PER_UNIT } from "../../core/wei.js";
import type { PlaceOrderInput } from "../../venue/types.js";
import { exponential, type Uniform, uniformInt } from "./random.js";

/** Marketable limit orders go 1 to this many ticks through the touch. */
export const MAX_TICKS_THROUGH = 3;

/** The taker parameters of a scenario's flow section. */
export interface TakerParams {
  readonly takerRatePerMin: number;
  readonly takerSizeMin: number;
  readonly takerSizeMax: number;
  readonly marketOrderShare: number;
}

/** What one arriving taker wants, before it looks at the book. */
export interface TakerDraw {
  readonly side: Side;
  /** Whole shares, in micro-units. */
  readonly quantity: bigint;
  readonly kind: "market" | "limit";
  /** How far a marketable limit goes through the touch, 1…MAX_TICKS_THROUGH ticks. */
  readonly ticksThrough: number;
}

/**
 * Milliseconds until the next taker of one token: exponential with mean 60 000 / rate, i.e. a
 * Poisson process of `ratePerMin` arrivals per minute. Infinity when the rate is 0.
 * @example nextArrivalGap(ctx.random, 30) // mean 2 000 ms
 */
export function nextArrivalGap(u: Uniform, ratePerMin: number): number {
  if (!(ratePerMin > 0)) return Number.POSITIVE_INFINITY;
  return exponential(u, 60_000 / ratePerMin);
}

/**
 * Draws one taker: side (even odds), size (whole shares uniform in [min, max]), kind (market with
 * probability marketOrderShare) and ticks through the touch. Always consumes exactly four uniforms,
 * whether or not the taker ends up trading, so the random sequence does not depend on book state.
 */
export function drawTaker(u: Uniform, p: TakerParams): TakerDraw {
  const side: Side = u() < 0.5 ? "buy" : "sell";
  const shares = uniformInt(u, p.takerSizeMin, p.takerSizeMax);
  const kind = u() < p.marketOrderShare ? "market" : "limit";
  const ticksThrough = uniformInt(u, 1, MAX_TICKS_THROUGH);
  return { side, quantity: BigInt(shares) * WEI_PER_UNIT, kind, ticksThrough };
}

/** Where the taker trades: its account, the token's market and outcome, tick and current touch. */
export interface TakerTarget {
  readonly account: Address;
  readonly marketId: string;
  readonly outcome: string;
  readonly tick: bigint;
  /** Best price on the side the taker trades against (best ask for a buy); undefined when empty. */
  readonly touch: bigint | undefined;
}

/**
 * The order a taker sends, or undefined when the opposite side is empty (nothing to take).
 * A market order is an IOC sweep with the widest acceptable price (1 − tick for a buy, tick for a
 * sell); a marketable limit is an IOC limit `ticksThrough` ticks beyond the touch, within
 * [tick, 1 − tick]. Both are IOC so a taker never leaves a resting remainder behind.
 */
export function takerOrder(draw: TakerDraw, t: TakerTarget): PlaceOrderInput | undefined {
  if (t.touch === undefined) return undefined;
  const maxPrice = WEI_PER_UNIT - t.tick;
  const through = BigInt(draw.ticksThrough) * t.tick;
  let price: bigint;
  if (draw.kind === "market") price = draw.side === "buy" ? maxPrice : t.tick;
  else if (draw.side === "buy") price = t.touch + through > maxPrice ? maxPrice : t.touch + through;
  else price = t.touch - through < t.tick ? t.tick : t.touch - through;
  return {
    wallet: t.account,
    marketId: t.marketId,
    outcome: t.outcome,
    side: draw.side,
    price,
    quantity: draw.quantity,
    type: draw.kind,
    timeInForce: "ioc",
  };
}
