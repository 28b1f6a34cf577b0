import type { LocalOrder, LocalOrderState } from "../core/trading.js";
import type { OrderStatus } from "../core/types.js";

/**
 * An order as the store tracks it: the shared {@link LocalOrder} plus the bookkeeping the order manager
 * and the reconciler need. Only the store (and the transitions below) mutate it.
 *
 * `filledMicro` is always max(fillSumMicro, remoteFilledMicro): both are lower bounds of the true filled
 * quantity (distinct fills seen so far; the largest filledQty the exchange reported), so it never exceeds
 * the truth, never decreases, and reaches the truth as soon as either source is complete.
 */
export interface TrackedOrder extends LocalOrder {
  /** True while the placement waits in the queue (never sent): it may still be superseded or dropped. */
  queued: boolean;
  /** Epoch ms the placement left; undefined while queued (and for adopted orders). */
  sentAtMs: number | undefined;
  /**
   * When the order manager issued the placement (before it was signed: a signed expiry runs from
   * later); for an adopted order, when it was adopted (`adopted`: its signing time is unknown).
   */
  readonly createdAtMs: number;
  /** Taken over from the exchange at start (reconcile.onStart adopt), not placed by this run. */
  adopted: boolean;
  /** Σ of the distinct fills applied to this order. */
  fillSumMicro: bigint;
  /** Largest filledQty the exchange reported for it. */
  remoteFilledMicro: bigint;
  /** Set when an answer left the order's fate open (failed or ambiguous cancel); cleared by the reconciler. */
  needsReconcile: boolean;
  /** Exchange code of the last reject or failed cancel. */
  lastCode: string | undefined;
  /**
   * Set for good once a cancel of it failed or went unanswered (not a 429 or 503, which say it was
   * not done): however the reconciler settles it, its next cancel-replace waits for the cancel.
   */
  cancelDoubted: boolean;
  /**
   * Set when it is cancelled to be renewed before its on-chain expiry cancel-then-place (a bid:
   * order-manager-diff.ts): its level's replacement waits for the cancel's answer, which steps the
   * token, as both resting together would need the bid's USDC twice.
   */
  cancelFirst: boolean;
}

/** States an order never leaves (except that enough fills always make it `filled`). */
export const TERMINAL_STATES: ReadonlySet<LocalOrderState> = new Set([
  "filled",
  "cancelled",
  "rejected",
  "expired",
]);

/** True for filled, cancelled, rejected and expired. */
export function isTerminal(state: LocalOrderState): boolean {
  return TERMINAL_STATES.has(state);
}

/**
 * The local state an exchange order status means. PENDING is accepted and counted as resting;
 * SETTLEMENT_FAILED ends the order without a full fill, so it maps to `cancelled` (its fills, if the
 * chain reverted them, are corrected by the position check, not here).
 * @example localStateOfRemote("PARTIAL") // "open"
 */
export function localStateOfRemote(status: OrderStatus | (string & {})): LocalOrderState {
  switch (status) {
    case "PENDING":
    case "OPEN":
    case "PARTIAL":
      return "open";
    case "FILLED":
      return "filled";
    case "EXPIRED":
      return "expired";
    case "REJECTED":
      return "rejected";
    default:
      return "cancelled";
  }
}

/** What can happen to an order, from the order manager's sends and their answers. Fills are separate. */
export type OrderEvent =
  /** The queue wrote the placement to the socket. */
  | { readonly kind: "sent" }
  /**
   * A sent placement answered "retry later" (429, 503, circuit open: it did not take effect) waits
   * in the queue again: queued, so that a newer decision can replace it or a gate withdraw it.
   */
  | { readonly kind: "requeued" }
  /** The placement answered OPEN, PARTIAL or FILLED. */
  | {
      readonly kind: "accepted";
      readonly orderId: string;
      readonly status: "OPEN" | "PARTIAL" | "FILLED";
      readonly filledMicro: bigint;
    }
  /** A definite reject: the order does not exist. */
  | { readonly kind: "rejected"; readonly code: string }
  /** Timeout or lost connection after the request left: it may exist. */
  | { readonly kind: "ambiguous" }
  /** The queue dropped the placement before sending it (superseded or shed). */
  | { readonly kind: "dropped" }
  /** A cancel intent was issued for it. */
  | { readonly kind: "cancel_requested" }
  /** The exchange confirmed the order is cancelled (cancel answer, cancel-all, order_cancelled event). */
  | { readonly kind: "cancel_confirmed" }
  /**
   * The cancel did not confirm. `retryable` (429, 503, never reached): still open, may be cancelled again.
   * Otherwise (not_cancellable, order_not_found, ambiguous): the reconciler must find out.
   */
  | { readonly kind: "cancel_failed"; readonly code: string; readonly retryable: boolean };

/**
 * Applies one event to an order in place. Returns false (and changes nothing) for a transition the
 * table below does not allow; the caller counts those and never throws.
 *
 * | from       | event                                | to                         |
 * |------------|--------------------------------------|----------------------------|
 * | placing    | sent (while queued)                  | placing                    |
 * | placing    | requeued (once sent)                 | placing, queued again      |
 * | placing    | accepted                             | open, or filled            |
 * | placing    | rejected                             | rejected                   |
 * | placing    | ambiguous                            | unknown (never resent)     |
 * | placing    | dropped (while queued)               | cancelled (never existed)  |
 * | cancelled after a drop | accepted / rejected / ambiguous | as from placing (it was sent after all) |
 * | filled     | accepted, ambiguous                  | filled (fills beat the answer) |
 * | open       | cancel_requested                     | cancelling                 |
 * | open, cancelling | cancel_confirmed               | cancelled                  |
 * | cancelling | cancel_failed retryable              | open                       |
 * | cancelling | cancel_failed otherwise              | cancelling, needsReconcile |
 */
export function transition(o: TrackedOrder, ev: OrderEvent, now: number): boolean {
  switch (ev.kind) {
    case "sent":
      if (o.state !== "placing" || !o.queued) return false;
      o.queued = false;
      o.sentAtMs = now;
      return true;
    case "requeued":
      if (o.state !== "placing" || o.queued) return false;
      // The send took no effect (429, 503): unsent again, so a drop before the next send is a drop
      // of an order that never existed (wasDropped), and its late reject no illegal transition.
      o.queued = true;
      o.sentAtMs = undefined;
      o.updatedAtMs = now;
      return true;
    case "accepted":
      return accept(o, ev, now);
    case "rejected":
      if (wasDropped(o)) return true;
      if (o.state !== "placing") return false;
      o.lastCode = ev.code;
      return move(o, "rejected", now);
    case "ambiguous":
      // Fills may complete an order before its answer times out: nothing is left to resolve.
      if (o.state === "filled") return true;
      if (o.state !== "placing" && !wasDropped(o)) return false;
      return move(o, "unknown", now);
    case "dropped":
      if (o.state !== "placing" || !o.queued) return false;
      return move(o, "cancelled", now);
    case "cancel_requested":
      if (o.state !== "open") return false;
      return move(o, "cancelling", now);
    case "cancel_confirmed":
      if (o.state !== "open" && o.state !== "cancelling") return false;
      o.needsReconcile = false;
      return move(o, "cancelled", now);
    case "cancel_failed":
      if (o.state !== "cancelling") return false;
      o.lastCode = ev.code;
      if (ev.retryable) return move(o, "open", now);
      o.needsReconcile = true;
      o.cancelDoubted = true;
      o.updatedAtMs = now;
      return true;
  }
}

function accept(o: TrackedOrder, ev: Extract<OrderEvent, { kind: "accepted" }>, now: number): boolean {
  if (o.orderId !== undefined && o.orderId !== ev.orderId) return false;
  if (o.state === "filled") {
    o.orderId = ev.orderId;
    return true;
  }
  if (o.state !== "placing" && !wasDropped(o)) return false;
  o.orderId = ev.orderId;
  o.queued = false;
  if (ev.filledMicro > o.remoteFilledMicro) o.remoteFilledMicro = ev.filledMicro;
  refreshFilled(o, now);
  return move(o, ev.status === "FILLED" || o.filledMicro >= o.sizeMicro ? "filled" : "open", now);
}

/**
 * A placement retired while queued that was sent anyway (the queue had already taken it): its answer
 * still counts, so the order is tracked again and the next diff cancels it if unwanted.
 */
function wasDropped(o: TrackedOrder): boolean {
  return o.state === "cancelled" && o.sentAtMs === undefined && o.orderId === undefined;
}

/**
 * Recomputes filledMicro from its two lower bounds. A complete fill makes any order but a rejected one
 * `filled`: fills are the exchange's word, whatever answer is still on its way. Becoming `filled` is a
 * change like any other: updatedAtMs moves to `at` (never back), so prune keeps the order (and its
 * fills) for the full horizon after it completed, not after it was placed.
 */
export function refreshFilled(o: TrackedOrder, at: number): void {
  const f = o.fillSumMicro > o.remoteFilledMicro ? o.fillSumMicro : o.remoteFilledMicro;
  if (f > o.filledMicro) o.filledMicro = f;
  if (o.filledMicro >= o.sizeMicro && o.state !== "rejected") {
    if (o.state !== "filled" && at > o.updatedAtMs) o.updatedAtMs = at;
    o.state = "filled";
    o.needsReconcile = false;
  }
}

function move(o: TrackedOrder, to: LocalOrderState, now: number): true {
  o.state = to;
  o.updatedAtMs = now;
  return true;
}
