import { ExchangeError } from "../exchange/exchange-error.js";
import type { Order } from "../exchange/types.js";
import { isTerminal, localStateOfRemote, type TrackedOrder } from "./order-state.js";
import type { OrderStore, OrderUpdate } from "./order-store.js";
import { remoteFilled } from "./reconcile-open-orders.js";

/** The exchange has no such order: GET /api/orders/{id} answered 404, or no history row has the clientOrderId. */
export const NOT_FOUND = "not_found" as const;

/** The `reason` of an unknown placement not found (by a complete search) once its grace has passed. */
export const NEVER_PLACED = "never_placed";

/**
 * GET /api/orders/{id} through `source`, with the exchange's 404 `order_not_found` as NOT_FOUND;
 * any other failure rejects.
 * @example const o = await lookupOrder(port, orderId); if (o === NOT_FOUND) …
 */
export async function lookupOrder(
  source: { order(orderId: string): Promise<Order> },
  orderId: string,
): Promise<Order | typeof NOT_FOUND> {
  try {
    return await source.order(orderId);
  } catch (err) {
    if (err instanceof ExchangeError && err.code === "order_not_found") return NOT_FOUND;
    throw err;
  }
}

/** Tuning of resolveGhost. */
export interface GhostOptions {
  /**
   * How long after it was sent an unknown placement may still surface on the exchange. Not found by
   * clientOrderId after that, it is taken as never placed. Default 30 000 ms (covers the client's request
   * timeout and the exchange's history lag with room to spare).
   */
  readonly graceMs?: number;
  /**
   * How long ago `local` was sent, as elapsed time (OrderStore.agesAt: on a monotonic clock where
   * the wall clock can step). Default `now - (sentAtMs ?? createdAtMs)`, which a forward step of the
   * wall clock would make end the grace at once.
   */
  readonly sentAgeMs?: (local: TrackedOrder) => number;
}

/**
 * Resolves a ghost (ours, believed live, absent from the open list) or an unresolved unknown order from
 * what the exchange says about it: the Order from GET /api/orders/{id} (or the history row with its
 * clientOrderId), or NOT_FOUND.
 *
 * INVARIANTS
 * - Pure; returns the update to apply (OrderStore.reconcile), or undefined to wait and ask again later.
 * - Found: the local state becomes the exchange's (OPEN/PENDING/PARTIAL → open, FILLED → filled,
 *   CANCELLED → cancelled, EXPIRED → expired, REJECTED → rejected, SETTLEMENT_FAILED → cancelled),
 *   its orderId is bound and filled quantity raised to the exchange's. A cancel still in flight keeps
 *   the order `cancelling` while the exchange says open.
 * - Not found, no orderId (an ambiguous placement): before graceMs after sending, wait; after it, the
 *   placement never reached the book → `rejected` (so the level may be quoted again). If it surfaces
 *   later after all, the open-orders diff reports it as an orphan and it is cancelled.
 * - Not found, with an orderId the exchange gave us: it no longer exists → `cancelled` (an anomaly,
 *   reason `order_not_found`).
 * - A terminal local order is never moved (the store enforces it too).
 * @example
 * const u = resolveGhost(ghost, await lookup(ghost.orderId), clock.now());
 * if (u) store.reconcile(u, now);
 */
export function resolveGhost(
  local: TrackedOrder,
  remote: Order | typeof NOT_FOUND,
  now: number,
  opts: GhostOptions = {},
): OrderUpdate | undefined {
  if (isTerminal(local.state)) return undefined;
  if (remote === NOT_FOUND) {
    if (local.orderId !== undefined) {
      return { clientOrderId: local.clientOrderId, state: "cancelled", reason: "order_not_found" };
    }
    const age = opts.sentAgeMs?.(local) ?? now - (local.sentAtMs ?? local.createdAtMs);
    if (age < (opts.graceMs ?? 30_000)) return undefined;
    return { clientOrderId: local.clientOrderId, state: "rejected", reason: NEVER_PLACED };
  }
  if (local.orderId !== undefined && remote.id !== local.orderId) return undefined;
  if (local.orderId === undefined && remote.clientOrderId !== local.clientOrderId) return undefined;
  const remoteState = localStateOfRemote(remote.status);
  const state =
    remoteState === "open" && local.state === "cancelling" && !local.needsReconcile
      ? "cancelling"
      : remoteState;
  return {
    clientOrderId: local.clientOrderId,
    orderId: remote.id,
    state,
    remoteFilledMicro: remoteFilled(remote),
    reason: `exchange_${remote.status.toLowerCase()}`,
  };
}

/** A lookup (GET /api/orders/{id}) of an order absent from the open list that failed. */
export interface LookupFailure {
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly error: unknown;
}

/** What lookupGhosts did: the updates applied, the orders left in doubt, the lookups that failed. */
export interface GhostLookups {
  readonly updates: readonly OrderUpdate[];
  /** Ghosts whose state stays in doubt: their lookup failed, or a cancel in doubt is still so. */
  readonly inDoubt: number;
  readonly failures: readonly LookupFailure[];
}

/**
 * Looks up each ghost (ours, believed live, absent from the open list) by GET /api/orders/{id} and
 * applies what resolveGhost makes of the answer to `store`. A lookup that fails fails alone, as a
 * history search does (searchSent): the order stays as it was, in doubt (a cancel whose effect is
 * unknown, an order mm holds open that is gone), counted in `inDoubt` for a prompt follow-up, and the
 * rest of the reconcile (searches, trades, positions) goes on. Before, it failed the whole run, whose
 * follow-up then came at the failure backoff's pace, up to the periodic run. Anything thrown that is
 * not an ExchangeError (a programming error) still rejects.
 * @example const l = await lookupGhosts(port, store, diff.ghosts, now); pending += l.inDoubt;
 */
export async function lookupGhosts(
  source: { order(orderId: string): Promise<Order> },
  store: OrderStore,
  ghosts: readonly TrackedOrder[],
  now: number,
  opts: GhostOptions = {},
): Promise<GhostLookups> {
  const updates: OrderUpdate[] = [];
  const failures: LookupFailure[] = [];
  let inDoubt = 0;
  for (const g of ghosts) {
    const orderId = g.orderId as string;
    let remote: Order | typeof NOT_FOUND;
    try {
      remote = await lookupOrder(source, orderId);
    } catch (error) {
      // Only the exchange's or the transport's failures (an unreadable body included: the client
      // makes it an ExchangeError) leave the order in doubt; a bug here (a TypeError) fails the run,
      // as it did before lookups failed alone, rather than hiding as an order in doubt.
      if (!(error instanceof ExchangeError)) throw error;
      failures.push({ clientOrderId: g.clientOrderId, orderId, error });
      inDoubt++;
      continue;
    }
    const u = resolveGhost(g, remote, now, opts);
    if (u !== undefined && store.reconcile(u, now)) updates.push(u);
    // A cancel still in doubt (an answer no state could be taken from): asked again soon.
    const after = store.get(g.clientOrderId);
    if (after?.state === "cancelling" && after.needsReconcile) inDoubt++;
  }
  return { updates, inDoubt, failures };
}
