import type { Decimal } from "decimal.js";
import { Dec, toDec } from "./decimal.js";
import { ValidationError } from "./errors.js";
import type { Side } from "./types.js";

/** feeRateBps ceiling of the exchange (MAX_FEE_RATE_BIPS). */
export const MAX_FEE_RATE_BPS = 1000;

/**
 * Taker fee rate at price p: feeTakerBps/10000 × p × (1 − p). It peaks at p = 0.5, where it equals
 * feeTakerBps / 4 / 10000.
 * @example feeRate(200, "0.5") // 0.005
 */
export function feeRate(feeTakerBps: number, price: Decimal | string): Decimal {
  assertFeeBps(feeTakerBps);
  const p = toDec(price, "price");
  return new Dec(feeTakerBps).div(10_000).times(p).times(new Dec(1).minus(p));
}

/** A fee amount and the asset it is paid in. */
export interface TakerFee {
  /** `shares` for a BUY taker (paid out of the shares received), `usdc` for a SELL taker. */
  readonly asset: "shares" | "usdc";
  /** Human units, exact. */
  readonly amount: Decimal;
}

/**
 * Taker fee of one fill. The fee is the rate times what the taker receives: a BUY taker receives
 * `quantity` shares and pays rate × quantity in shares; a SELL taker receives price × quantity USDC
 * and pays rate × price × quantity in USDC. (Which amount the rate applies to is not shown in the
 * spec: see README "Assumptions".)
 */
export function takerFee(
  side: Side,
  feeTakerBps: number,
  price: Decimal | string,
  quantity: Decimal | string,
): TakerFee {
  const rate = feeRate(feeTakerBps, price);
  const q = toDec(quantity, "quantity");
  return side === "buy"
    ? { asset: "shares", amount: rate.times(q) }
    : { asset: "usdc", amount: rate.times(q).times(toDec(price, "price")) };
}

/** Checks feeRateBps against the exchange ceiling; throws ValidationError `fee_too_high`. */
export function assertFeeBps(bps: number): number {
  if (!Number.isInteger(bps) || bps < 0) {
    throw new ValidationError("invalid_fee_bps", `feeRateBps must be a non-negative integer, got ${bps}`, {
      bps,
    });
  }
  if (bps > MAX_FEE_RATE_BPS) {
    throw new ValidationError("fee_too_high", `feeRateBps ${bps} exceeds ${MAX_FEE_RATE_BPS}`, {
      bps,
      max: MAX_FEE_RATE_BPS,
    });
  }
  return bps;
}

const FEE_DENOMINATOR_BUY = 10_000n * 1_000_000n * 1_000_000n; // bps · p(1−p) in micro² units
const FEE_DENOMINATOR_SELL = FEE_DENOMINATOR_BUY * 1_000_000n; // and × price in micro units

/**
 * Taker fee of one fill in 6-decimal wei, for venues and accounting that run on integers.
 * BUY: shares wei = ⌈qty · bps/10⁴ · p(1−p)⌉; SELL: USDC wei = ⌈qty · p · bps/10⁴ · p(1−p)⌉.
 * Rounded up to the next micro-unit (the venue never under-charges; the real rounding is not
 * shown in the spec: see README "Assumptions"). Exact otherwise.
 * @example takerFeeWei("buy", 200, 500_000n, 100_000_000n) // 500000n (0.5 shares)
 */
export function takerFeeWei(side: Side, feeTakerBps: number, priceWei: bigint, qtyWei: bigint): bigint {
  assertFeeBps(feeTakerBps);
  if (priceWei < 0n || priceWei > 1_000_000n || qtyWei < 0n) {
    throw new ValidationError("invalid_amounts", "fee operands out of range", {
      priceWei: priceWei.toString(),
      qtyWei: qtyWei.toString(),
    });
  }
  const base = qtyWei * BigInt(feeTakerBps) * priceWei * (1_000_000n - priceWei);
  const num = side === "buy" ? base : base * priceWei;
  const den = side === "buy" ? FEE_DENOMINATOR_BUY : FEE_DENOMINATOR_SELL;
  return (num + den - 1n) / den;
}
