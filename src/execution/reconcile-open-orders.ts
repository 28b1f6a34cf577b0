import { toWei } from "../core/wei.js";
import type { Order } from "../exchange/types.js";
import { isTerminal, type TrackedOrder } from "./order-state.js";
import type { OrderUpdate } from "./order-store.js";

/** What comparing local orders with GET /api/orders/open found. */
export interface OpenOrdersDiff {
  /** Local orders the exchange lists as open: ids bound, filled quantities raised, unknowns resolved. */
  readonly updates: readonly OrderUpdate[];
  /** Open on the exchange, not ours (or ours but already over locally): cancel, or adopt when configured. */
  readonly orphans: readonly Order[];
  /** Ours, believed open, cancelling or unknown, with an orderId, absent from the list: GET /api/orders/{id}. */
  readonly ghosts: readonly TrackedOrder[];
  /** Unknown orders with no orderId, absent from the list: look them up by clientOrderId in the history. */
  readonly unresolved: readonly TrackedOrder[];
}

/** Tuning of reconcileOpenOrders. */
export interface OpenOrdersOptions {
  /**
   * A `cancelling` order whose cancel is still in flight (not flagged for reconcile) and changed less
   * than this long ago is left to its answer instead of being looked up. Default 5000 ms.
   */
  readonly graceMs?: number;
  /**
   * How long ago an order last changed, as elapsed time (OrderStore.agesAt: on a monotonic clock
   * where the wall clock can step). Default `now - updatedAtMs`, which a step of the wall clock moves
   * by the step: forward, an answer still on its way is pre-empted; back, a cancel that went
   * unanswered is left alone (and its order resting) for the step's length.
   */
  readonly changedAgeMs?: (o: TrackedOrder) => number;
}

/**
 * Compares local orders with the exchange's open orders. Remote orders match a local one by orderId,
 * else by clientOrderId (that is how an ambiguous placement is found).
 *
 * INVARIANTS
 * - Pure: reads its inputs, returns a diff; the caller applies `updates` (OrderStore.reconcile).
 * - Every remote open order is exactly one of: an update of a live local order, a no-op (a local
 *   `filled` order the list has not caught up with, or a `placing` one whose answer is on its way), or
 *   an orphan.
 * - Every non-terminal local order absent from the list is exactly one of: skipped (placing: its answer
 *   is coming; cancelling within graceMs: its cancel answer is coming), a ghost (it has an orderId), or
 *   unresolved (no orderId).
 * - A terminal local order never becomes open again: if the exchange lists it (a placement retired or
 *   given up on that landed after all), it is an orphan to cancel.
 * - An update never moves an order whose cancel is in flight (within graceMs) back to open; a cancel
 *   that failed (needsReconcile) or went unanswered past graceMs, with the order still open on the
 *   exchange, goes back to open, so the next diff cancels it again.
 * @example
 * const d = reconcileOpenOrders([...store.all()], await port.openOrders(), clock.now());
 * for (const u of d.updates) store.reconcile(u, now);
 */
export function reconcileOpenOrders(
  local: Iterable<TrackedOrder>,
  remoteOpen: readonly Order[],
  now: number,
  opts: OpenOrdersOptions = {},
): OpenOrdersDiff {
  const graceMs = opts.graceMs ?? 5000;
  const age = opts.changedAgeMs ?? ((o: TrackedOrder) => now - o.updatedAtMs);
  const byId = new Map<string, TrackedOrder>();
  const byClient = new Map<string, TrackedOrder>();
  const candidates: TrackedOrder[] = [];
  for (const o of local) {
    if (o.orderId !== undefined) byId.set(o.orderId, o);
    byClient.set(o.clientOrderId, o);
    if (!isTerminal(o.state)) candidates.push(o);
  }
  const seen = new Set<TrackedOrder>();
  const updates: OrderUpdate[] = [];
  const orphans: Order[] = [];
  for (const r of remoteOpen) {
    const byOrder = byId.get(r.id);
    const byCid = r.clientOrderId === undefined ? undefined : byClient.get(r.clientOrderId);
    const l = byOrder ?? (byCid !== undefined && byCid.orderId === undefined ? byCid : undefined);
    if (l === undefined || (isTerminal(l.state) && l.state !== "filled")) {
      orphans.push(r);
      continue;
    }
    seen.add(l);
    // A filled order the list has not caught up with, or a placement whose answer is on its way.
    if (isTerminal(l.state) || l.state === "placing") continue;
    const u = updateFor(l, r, inFlight(l, age, graceMs));
    if (u !== undefined) updates.push(u);
  }
  const ghosts: TrackedOrder[] = [];
  const unresolved: TrackedOrder[] = [];
  for (const o of candidates) {
    if (seen.has(o) || o.state === "placing") continue;
    if (inFlight(o, age, graceMs)) continue;
    if (o.orderId !== undefined) ghosts.push(o);
    else unresolved.push(o);
  }
  return { updates, orphans, ghosts, unresolved };
}

/** A cancel sent recently whose answer has not come yet: leave the order to that answer. */
function inFlight(o: TrackedOrder, age: (o: TrackedOrder) => number, graceMs: number): boolean {
  return o.state === "cancelling" && !o.needsReconcile && age(o) < graceMs;
}

function updateFor(l: TrackedOrder, r: Order, cancelInFlight: boolean): OrderUpdate | undefined {
  const filled = remoteFilled(r);
  const state = cancelInFlight ? "cancelling" : "open";
  if (state === l.state && l.orderId === r.id && filled <= l.remoteFilledMicro && !l.needsReconcile) {
    return undefined;
  }
  return {
    clientOrderId: l.clientOrderId,
    orderId: r.id,
    state,
    remoteFilledMicro: filled,
    reason: l.state === "unknown" ? "found_open" : "open_on_exchange",
  };
}

/** filledQty of an exchange order in micro-units; 0 when unreadable (it is only a lower bound). */
export function remoteFilled(r: Order): bigint {
  try {
    return toWei(r.filledQty, "filledQty");
  } catch {
    return 0n;
  }
}
