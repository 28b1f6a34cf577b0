import { MmError } from "../../core/errors.js";

/**
 * A refused admin action: a stable code, the HTTP status /__admin answers with, and details.
 * Codes: `invalid_argument` (400), `unknown_key`, `unknown_partner`, `unknown_market`,
 * `unknown_token` (404), `market_resolved` (409: a resolved market has paid out and cannot change).
 */
export class AdminError extends MmError {
  readonly status: 400 | 404 | 409;

  constructor(status: 400 | 404 | 409, code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.status = status;
  }
}

/** `value` as an integer in [min, max], else `invalid_argument` naming `field`. */
export function intIn(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new AdminError(400, "invalid_argument", `${field} must be an integer in [${min}, ${max}]`, {
      field,
      value: value === undefined ? null : value,
    });
  }
  return value;
}

/** `value` as a non-empty string, else `invalid_argument` naming `field`. */
export function nonEmpty(field: string, value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw new AdminError(400, "invalid_argument", `${field} must be a non-empty string`, { field });
  }
  return value;
}
