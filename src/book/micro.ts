import type { Decimal } from "decimal.js";
import { Dec } from "../core/decimal.js";

/**
 * Exact micro-unit (1e-6) arithmetic for the book's hot path, without decimal.js.
 *
 * Representation (measured, see BENCHMARKS.md "Order book"):
 * - prices are `number` micro-units: a price is at most 1 (1,000,000 micro), far inside 2^53, so
 *   every price and every sum or difference of two prices is an exact integer double;
 * - sizes are `bigint` micro-units: the spec bounds no level size, and 2^53 micro is only about
 *   9e9 shares, which a sum over 100 deep levels could pass. bigint costs ~15 ns per parsed size and
 *   ~20% on a level update, both far below the goals, and can never silently round.
 */

/** Largest price the book accepts, in micro-units (a price of 1). */
export const MAX_PRICE_MICRO = 1_000_000;

const MICRO_DIGITS = 6;
// 15 decimal digits always fit a double exactly (10^15 < 2^53), so shorter sizes take the number path.
const SAFE_DIGITS = 15;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/**
 * Parses a price decimal string ("0.53", "1", "0.000001") into micro-units; −1 when the string is
 * not a plain decimal, has a non-zero digit beyond the 6th decimal, or lies outside (0, 1].
 * @example parsePriceMicro("0.53") // 530000
 */
export function parsePriceMicro(s: string): number {
  const n = s.length;
  let value = 0;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === DOT) break;
    if (c < ZERO || c > NINE) return -1;
    value = value * 10 + (c - ZERO);
    if (value > 1) return -1;
  }
  if (i === 0) return -1;
  value *= 1_000_000;
  if (i < n) {
    if (i === n - 1) return -1; // "1." has no fraction digits
    let scale = 100_000;
    for (let j = i + 1; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c < ZERO || c > NINE) return -1;
      if (j - i <= MICRO_DIGITS) value += (c - ZERO) * scale;
      else if (c !== ZERO) return -1;
      scale /= 10;
    }
  }
  return value > 0 && value <= MAX_PRICE_MICRO ? value : -1;
}

/**
 * Parses a non-negative size decimal string ("5246.77", "0") into micro-units; undefined when the
 * string is not a plain decimal or has a non-zero digit beyond the 6th decimal. No upper bound.
 * @example parseSizeMicro("5246.77") // 5246770000n
 */
export function parseSizeMicro(s: string): bigint | undefined {
  const n = s.length;
  let dot = -1;
  let digits = 0;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === DOT) {
      if (dot >= 0 || i === 0 || i === n - 1) return undefined;
      dot = i;
      continue;
    }
    if (c < ZERO || c > NINE) return undefined;
    if (dot >= 0 && i - dot > MICRO_DIGITS) {
      if (c !== ZERO) return undefined;
      continue;
    }
    value = value * 10 + (c - ZERO);
    digits++;
  }
  if (digits === 0) return undefined;
  const frac = dot < 0 ? 0 : Math.min(n - dot - 1, MICRO_DIGITS);
  if (digits + (MICRO_DIGITS - frac) <= SAFE_DIGITS) {
    return BigInt(value * 10 ** (MICRO_DIGITS - frac));
  }
  // Long sizes: build the integer from the digits as text, exactly.
  const int = dot < 0 ? s : s.slice(0, dot);
  const fracText = dot < 0 ? "" : s.slice(dot + 1, dot + 1 + MICRO_DIGITS);
  return BigInt(int + fracText.padEnd(MICRO_DIGITS, "0"));
}

/**
 * Canonical decimal string of a micro-unit amount ("530000" → "0.53", 10000000n → "10").
 * @example microToString(530000) // "0.53"
 */
export function microToString(micro: number | bigint): string {
  const v = typeof micro === "bigint" ? micro : BigInt(micro);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const whole = abs / 1_000_000n;
  const frac = abs % 1_000_000n;
  const sign = neg ? "-" : "";
  if (frac === 0n) return `${sign}${whole}`;
  return `${sign}${whole}.${frac.toString().padStart(MICRO_DIGITS, "0").replace(/0+$/, "")}`;
}

/** A micro-unit amount as a Dec of whole units (exact). */
export function microToDec(micro: number | bigint): Decimal {
  return new Dec(micro.toString()).div(1_000_000);
}
