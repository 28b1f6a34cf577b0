import type { ExchangeCodeLike } from "./codes.js";
import { ExchangeError } from "./exchange-error.js";
import type { AcceptedPlacementStatus, PlacementResult } from "./types.js";

/**
 * What a placement did, as the order manager needs it. Placement returns this instead of throwing
 * because every branch is an expected business outcome the caller must handle, and a union makes the
 * compiler insist that it does:
 * - `accepted`: the order exists (OPEN, PARTIAL or FILLED).
 * - `rejected`: the order does not exist. `retryable` says whether sending it again later can succeed
 *   (429, 503, connection refused, open circuit) or not (a definite business/validation reject).
 * - `ambiguous`: it may exist (timeout or connection lost after the request left, 5xx other than 503,
 *   unreadable 201). Reconcile by clientOrderId before anything else; never resend blindly.
 */
export type PlaceOrderOutcome =
  | {
      kind: "accepted";
      result: PlacementResult & { status: AcceptedPlacementStatus };
      requestId: string | undefined;
    }
  | { kind: "rejected"; code: ExchangeCodeLike; retryable: boolean; error: ExchangeError }
  | { kind: "ambiguous"; error: ExchangeError };

/**
 * Maps a placement failure to its outcome. Anything that is not an ExchangeError is a bug and rethrown.
 * @example
 * const out = await client.orders.place(req);
 * if (out.kind === "rejected" && out.code === "fee_too_high") disableMarket(req.marketId);
 */
export function placeOutcomeOf(err: unknown): PlaceOrderOutcome {
  if (!(err instanceof ExchangeError)) throw err;
  if (err.outcome === "ambiguous") return { kind: "ambiguous", error: err };
  return { kind: "rejected", code: err.code, retryable: err.outcome === "retryable", error: err };
}
