import type { Decimal } from "decimal.js";
import { Dec, toDec } from "./decimal.js";
import { ValidationError } from "./errors.js";

/** USDC and outcome shares both have 6 decimals on chain. */
export const WEI_DECIMALS = 6;
/** 10^6 as a bigint: one whole unit in micro-units. */
export const WEI_PER_UNIT = 1_000_000n;

/**
 * Exact conversion of a human amount to 6-decimal wei. Refuses anything finer than 1e-6 rather
 * than rounding: a silently rounded quantity is a different order.
 * @example toWei("0.53") // 530000n
 */
export function toWei(value: Decimal | string | bigint, field = "amount"): bigint {
  const d = toDec(value, field);
  // On the digits, not with d.times(10^6): Dec arithmetic rounds to 60 significant digits, which
  // would silently drop a 7th decimal from a value of 55 integer digits or more.
  const text = d.toFixed();
  const dot = text.indexOf(".");
  const frac = dot < 0 ? "" : text.slice(dot + 1);
  if (frac.length > WEI_DECIMALS) {
    throw new ValidationError("precision_exceeded", `${field} has more than ${WEI_DECIMALS} decimals`, {
      field,
      value: text,
    });
  }
  return BigInt((dot < 0 ? text : text.slice(0, dot)) + frac.padEnd(WEI_DECIMALS, "0"));
}

/** Wei to a Decimal of human units. */
export function fromWei(wei: bigint): Decimal {
  return new Dec(wei.toString()).div(1_000_000);
}

/** Wei to a canonical decimal string ("530000" → "0.53"). */
export function weiToString(wei: bigint): string {
  return fromWei(wei).toFixed();
}

/** ⌈a·b / 10^6⌉ for non-negative a, b: the BUY notional in USDC wei. */
export function mulWeiCeil(a: bigint, b: bigint): bigint {
  assertNonNegative(a, b);
  const p = a * b;
  return (p + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;
}

/** ⌊a·b / 10^6⌋ for non-negative a, b: the SELL proceeds in USDC wei. */
export function mulWeiFloor(a: bigint, b: bigint): bigint {
  assertNonNegative(a, b);
  return (a * b) / WEI_PER_UNIT;
}

function assertNonNegative(a: bigint, b: bigint): void {
  if (a < 0n || b < 0n) throw new ValidationError("negative_amount", "wei operands must be non-negative", {});
}
