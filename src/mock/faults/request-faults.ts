import { AdminError, intIn, nonEmpty } from "./admin-error.js";
import type { FaultState } from "./state.js";

/** Statuses an injected request failure may carry. */
export type FailStatus = 429 | 500 | 502 | 503;

/**
 * Code sent when failNextRequests is given none: the spec's `rate_limited` for 429 and
 * `exchange_unavailable` for 503, its fallback `exchange_upstream_error` for 502, and
 * `internal_error` for 500 (the spec's catalogue has no generic 500 code).
 */
export const DEFAULT_FAIL_CODES: Readonly<Record<FailStatus, string>> = {
  429: "rate_limited",
  500: "internal_error",
  502: "exchange_upstream_error",
  503: "exchange_unavailable",
};

/** Upper bound of injected latency, ms (a test that wants "never" uses hang or silence instead). */
export const MAX_LATENCY_MS = 600_000;

/** Upper bound of injected counts. */
export const MAX_FAULT_COUNT = 1_000_000;

/**
 * The validated failNext fault, or undefined for count 0 (cancels a pending one).
 * @example failNextFault(3, 429, undefined, 7) // { count: 3, status: 429, code: "rate_limited", retryAfterSeconds: 7 }
 */
export function failNextFault(
  count: number,
  status: number,
  code: string | undefined,
  retryAfterSeconds: number,
): FaultState["failNext"] {
  const n = intIn("count", count, 0, MAX_FAULT_COUNT);
  if (typeof status !== "number" || !Object.hasOwn(DEFAULT_FAIL_CODES, status)) {
    throw new AdminError(400, "invalid_argument", "status must be 429, 500, 502 or 503", { field: "status" });
  }
  const s = status as FailStatus;
  const fault = {
    count: n,
    status: s,
    code: code === undefined ? DEFAULT_FAIL_CODES[s] : nonEmpty("code", code),
    retryAfterSeconds: intIn("retryAfterSeconds", retryAfterSeconds, 0, 86_400),
  };
  return n === 0 ? undefined : fault;
}
