import { toWei } from "../core/wei.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import { isTerminal } from "./order-state.js";
import type { OrderStore } from "./order-store.js";

/** What an answer did to the order, for the engine's log and its reconcile trigger. */
export interface OutcomeEffect {
  /** The transition was legal and applied. */
  readonly applied: boolean;
  /** The order's fate is open: the engine should schedule a reconcile soon. */
  readonly reconcile: boolean;
}

/**
 * Maps a placement's three-way outcome onto the order's state:
 * - accepted (OPEN / PARTIAL / FILLED) → open or filled, with its orderId and filled quantity;
 * - rejected (definite or retryable) → rejected: the order does not exist. A retryable reject is not
 *   resent under the same id; the next diff places the quote afresh under a new clientOrderId;
 * - ambiguous → unknown. It is never resent: the order manager places nothing more on that level until
 *   the reconciler resolves it by clientOrderId.
 * @example
 * const out = await port.place(req);
 * if (applyPlaceOutcome(store, req.clientOrderId, out, clock.now()).reconcile) reconciler.soon();
 */
export function applyPlaceOutcome(
  store: OrderStore,
  clientOrderId: string,
  outcome: PlaceOrderOutcome,
  now: number,
): OutcomeEffect {
  switch (outcome.kind) {
    case "accepted": {
      const r = outcome.result;
      const applied = store.apply(
        clientOrderId,
        { kind: "accepted", orderId: r.orderId, status: r.status, filledMicro: filledOf(r.filledQty) },
        now,
      );
      return { applied, reconcile: !applied };
    }
    case "rejected":
      return {
        applied: store.apply(clientOrderId, { kind: "rejected", code: outcome.code }, now),
        reconcile: false,
      };
    case "ambiguous":
      return { applied: store.apply(clientOrderId, { kind: "ambiguous" }, now), reconcile: true };
  }
}

/** Marks a placement as written to the socket (the queue calls this when it sends). */
export function markPlacementSent(store: OrderStore, clientOrderId: string, now: number): boolean {
  return store.apply(clientOrderId, { kind: "sent" }, now);
}

/**
 * Marks a queued placement the queue dropped before sending (superseded or shed): it never existed.
 * The queue reports a placement it sent once (and re-queued after a retryable reject) with that
 * answer, not as dropped. Should a drop still name a placement already sent, nothing says what the
 * exchange made of it, so it becomes `unknown` for the reconciler to resolve by clientOrderId rather
 * than stay `placing`, which would block its level for good.
 */
export function markPlacementDropped(store: OrderStore, clientOrderId: string, now: number): boolean {
  const o = store.get(clientOrderId);
  // The order manager already retired a superseded placement; the queue's drop confirms it.
  if (o !== undefined && o.state === "cancelled" && o.sentAtMs === undefined) return true;
  if (o !== undefined && o.state === "placing" && !o.queued) {
    return store.apply(clientOrderId, { kind: "ambiguous" }, now);
  }
  return store.apply(clientOrderId, { kind: "dropped" }, now);
}

/**
 * Maps the answer to POST /api/orders/cancel. Success → cancelled. A retryable failure (429, 503, never
 * reached) → open again, so the next diff cancels it again. `not_cancellable` (already terminal),
 * `order_not_found`, any other definite reject and an ambiguous answer leave it `cancelling` and flag it
 * for the reconciler, which finds out whether it filled, expired or was cancelled.
 * Anything that is neither success nor an ExchangeError is a bug and rethrown.
 */
export function applyCancelOutcome(
  store: OrderStore,
  clientOrderId: string,
  answer: { readonly ok: true } | { readonly ok: false; readonly error: unknown },
  now: number,
): OutcomeEffect {
  if (answer.ok) {
    return { applied: store.apply(clientOrderId, { kind: "cancel_confirmed" }, now), reconcile: false };
  }
  const err = answer.error;
  if (!(err instanceof ExchangeError)) throw err;
  const retryable = err.outcome === "retryable";
  const applied = store.apply(clientOrderId, { kind: "cancel_failed", code: err.code, retryable }, now);
  return { applied, reconcile: !retryable };
}

/**
 * Applies a successful cancel-all: every open or cancelling order in scope (one market, or all when
 * `marketId` is undefined) is cancelled on the exchange. An order that had filled or expired just before
 * is marked cancelled here; its late fills still make it `filled`, and an expiry is reported as a
 * cancel (the difference does not matter to quoting). Placing and unknown orders are left alone: they
 * may have landed after the cancel-all and are the reconciler's to resolve.
 * @returns how many orders it marked cancelled.
 */
export function applyCancelAllOutcome(store: OrderStore, marketId: string | undefined, now: number): number {
  let n = 0;
  for (const o of store.all()) {
    if (isTerminal(o.state) || (marketId !== undefined && o.marketId !== marketId)) continue;
    if (o.state !== "open" && o.state !== "cancelling") continue;
    if (store.apply(o.clientOrderId, { kind: "cancel_confirmed" }, now)) n++;
  }
  return n;
}

function filledOf(qty: string): bigint {
  try {
    return toWei(qty, "filledQty");
  } catch {
    // The client checked it is a decimal; a finer-than-micro value cannot come from a 6-decimal venue.
    return 0n;
  }
}
