import { Decimal } from "decimal.js";
import { ValidationError } from "./errors.js";

/**
 * A decimal.js constructor private to mm: enough precision that prices × sizes × fee rates never
 * round, and errors instead of silent NaN. Use it for every price, size, amount and PnL figure.
 */
export const Dec = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -30,
  toExpPos: 40,
});
export type Dec = Decimal;

const DECIMAL_STRING = /^-?(?:\d+)(?:\.\d+)?$/;

/**
 * Parses a decimal string as the API sends it ("0.53", "100", "-1.5"). Rejects exponents, blanks,
 * hex, NaN and JSON numbers, so that nothing lossy slips in at the boundary.
 * @example parseDecimal("0.53", "price") // Dec(0.53)
 */
export function parseDecimal(value: unknown, field: string): Decimal {
  if (typeof value !== "string" || !DECIMAL_STRING.test(value)) {
    throw new ValidationError(
      "invalid_decimal",
      `${field} must be a decimal string, got ${describe(value)}`,
      {
        field,
        value: describe(value),
      },
    );
  }
  return new Dec(value);
}

/** Converts a Decimal, a decimal string or a safe integer to a Decimal (floats with a fraction are refused). */
export function toDec(value: Decimal | string | number | bigint, field = "value"): Decimal {
  if (Decimal.isDecimal(value)) return value as Decimal;
  if (typeof value === "bigint") return new Dec(value.toString());
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new ValidationError("invalid_decimal", `${field}: binary float ${value} refused; pass a string`, {
        field,
      });
    }
    return new Dec(value);
  }
  return parseDecimal(value, field);
}

/** Canonical decimal string: no exponent, no trailing zeros ("0.50" → "0.5"). */
export function decString(d: Decimal): string {
  return d.toFixed();
}

function describe(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return typeof v;
}
