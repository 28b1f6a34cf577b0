import { Dec } from "../../core/decimal.js";

/**
 * Exact decimal string of `value / 10^scale` (a bigint of micro-, pico- or half-pico units):
 * no rounding, no exponent, minimal digits ("-1.5", "0", "0.000001").
 * @example units(1_500_000n, 6) // "1.5"
 */
export function units(value: bigint, scale: number): string {
  return new Dec(value.toString()).div(new Dec(10).pow(scale)).toFixed();
}

/**
 * `num / den` rounded half-even to `decimals` places, as a decimal string; null when den is 0.
 * @example ratio(1n, 3n, 6) // "0.333333"
 */
export function ratio(num: bigint, den: bigint, decimals: number): string | null {
  if (den === 0n) return null;
  return new Dec(num.toString()).div(den.toString()).toDecimalPlaces(decimals, Dec.ROUND_HALF_EVEN).toFixed();
}

/** A float statistic rounded to `digits` decimals (null stays null; -0 becomes 0). */
export function rounded(x: number | null, digits = 6): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const r = Number(x.toFixed(digits));
  return r === 0 ? 0 : r;
}
