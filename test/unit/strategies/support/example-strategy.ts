import type { DesiredQuote } from "../../../../src/core/trading.js";
import { ParamReader } from "../../../../strategies/params.js";
import { inventoryLots, modelQuotes, quotableTouch } from "../../../../strategies/quoting.js";
import type { Strategy, StrategyContext } from "../../../../strategies/types.js";

/** Parameters of `skewed-mid`. */
export interface SkewedMidParams {
  /** Distance of each quote from the centre, micro-units of price, in (0, 0.5). */
  readonly halfSpreadMicro: number;
  /** How far the centre moves per lot of inventory, micro-units of price (0 = no skew). */
  readonly skewPerLotMicro: number;
  /** Size of each quote (one lot), micro-units of shares. */
  readonly orderSizeMicro: bigint;
}

/**
 * Validates `{ halfSpread: "0.01", orderSize: "10", skewPerLot?: 0.002 }`: decimal strings for the
 * price distance and the size, a number (price units per lot, default 0) for the skew.
 * @example parseSkewedMidParams({ halfSpread: "0.02", orderSize: "10", skewPerLot: 0.005 })
 */
export function parseSkewedMidParams(raw: unknown): SkewedMidParams {
  const r = new ParamReader(raw);
  const halfSpreadMicro = Number(r.micro("halfSpread", 500_000n));
  const skewPerLot = r.number("skewPerLot", { min: 0, lt: 1 }, 0);
  const orderSizeMicro = r.micro("orderSize");
  r.finish("skewed-mid"); // throws StrategyParamsError listing every issue
  return { halfSpreadMicro, skewPerLotMicro: skewPerLot * 1_000_000, orderSizeMicro };
}

/**
 * One bid and one ask of `orderSize` around the mid shifted against the inventory: centre =
 * mid − q·skewPerLot (q in lots, long → both quotes lower, so the bid fills less and the ask more),
 * bid = centre − halfSpread rounded down, ask = centre + halfSpread rounded up.
 * @example
 * // book 0.49 / 0.51, tick 0.01, long 2 lots, skew 0.005 → centre 0.49 → bid 0.47, ask 0.51
 */
export function skewedMidQuotes(ctx: StrategyContext, p: SkewedMidParams): DesiredQuote[] {
  const touch = quotableTouch(ctx); // no data → no quote
  if (touch === undefined) return [];
  const q = inventoryLots(ctx.inventory, p.orderSizeMicro);
  const centre = (touch.bid + touch.ask) / 2 - q * p.skewPerLotMicro;
  // Grid rounding, the band, never through the touch, own bid < own ask, minimum size, order.
  return modelQuotes(ctx, touch, centre - p.halfSpreadMicro, centre + p.halfSpreadMicro, p.orderSizeMicro);
}

/** The `skewed-mid` strategy. */
export const skewedMid: Strategy<SkewedMidParams> = {
  name: "skewed-mid",
  parseParams: parseSkewedMidParams,
  quote: skewedMidQuotes,
};
