import { takerFeeWei } from "../core/fees.js";
import type { Side } from "../core/types.js";
import { WEI_PER_UNIT } from "../core/wei.js";
import type { FeeAmount } from "./types.js";

/**
 * Integer money rules of the venue (all values 6-decimal micro-units).
 *
 * A buy order pays, over its whole life, ⌈Σ priceᵢ·qtyᵢ / 10⁶⌉ USDC: the exact notional of its fills
 * rounded up once, not once per fill. So a buy never pays more than the ⌈limit·quantity⌉ it signed
 * as makerAmount (on chain the exchange cannot take more), however finely it is filled; each fill
 * pays the increase of that rounded cumulative amount, and the seller receives exactly what the
 * buyer pays.
 */

/** ⌈a / b⌉ for a ≥ 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** USDC a buy order must hold reserved: the most it can still pay if its remainder fills at its limit. */
export function buyReservation(notionalAcc: bigint, limitPrice: bigint, remaining: bigint): bigint {
  return ceilDiv(notionalAcc + limitPrice * remaining, WEI_PER_UNIT) - ceilDiv(notionalAcc, WEI_PER_UNIT);
}

/**
 * USDC a buy pays for one fill, given the exact notional (micro² units) of its earlier fills.
 * @example buyFillPayment(0n, 500_000n, 3n) // 2n  (0.5 × 0.000003 = 0.0000015 → 0.000002)
 */
export function buyFillPayment(notionalAcc: bigint, price: bigint, qty: bigint): bigint {
  return ceilDiv(notionalAcc + price * qty, WEI_PER_UNIT) - ceilDiv(notionalAcc, WEI_PER_UNIT);
}

/** Fee parameters in force for one fill. */
export interface FeeSchedule {
  readonly takerBps: number;
  readonly makerBps: number;
}

/**
 * Fee of one side of a fill. The spec's formula (rate = bps/10⁴ · p · (1 − p)) applied to what the
 * payer receives: a buyer (taker or maker) pays in shares, a seller in USDC, rounded up to the
 * micro-unit by `takerFeeWei`. The fee never exceeds what the fill pays its payer (only reachable
 * for sub-micro notionals), so fees never need reserving.
 */
export function fillFee(side: Side, bps: number, price: bigint, qty: bigint, notional: bigint): FeeAmount {
  const raw = takerFeeWei(side, bps, price, qty);
  return side === "buy"
    ? { asset: "shares", amount: raw < qty ? raw : qty }
    : { asset: "usdc", amount: raw < notional ? raw : notional };
}

/** Smaller of two bigints. */
export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
