import type { Order } from "../exchange/types.js";
import type { TrackedOrder } from "./order-state.js";

/** A span of exchange time, epoch ms: `fromMs` inclusive, `toMs` exclusive. */
export interface TimeWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

/** What an order-history search by clientOrderId found (ReconcileSource.ordersByClientId). */
export interface ClientIdSearch {
  /** The orders carrying the wanted clientOrderIds. */
  readonly orders: readonly Order[];
  /**
   * False when a page bound ended the search with some wanted id unseen and history (of the window,
   * when given) still unread: such an id may be there, so not finding it proves nothing.
   */
  readonly complete: boolean;
}

/** What a history search made of an unknown placement (ReconcileReport.answered). */
export interface SearchAnswer {
  readonly clientOrderId: string;
  /** Found: the exchange's order id, market and status; all undefined when not found. */
  readonly orderId: string | undefined;
  readonly marketId: string | undefined;
  readonly status: string | undefined;
  /**
   * Not found, and NOT proven never placed: given up after MAX_UNSURE_SEARCHES cut-short searches.
   * False and not found: never placed (a complete search, past the grace).
   */
  readonly givenUp: boolean;
}

/**
 * Slack around our send times when searching the exchange's order history: its createdAt is its own
 * clock's, which may differ from ours by the network delay and a clock offset.
 */
export const HISTORY_SLACK_MS = 60_000;

/**
 * Placements sent within this of each other share one history search: their windows (±
 * HISTORY_SLACK_MS) overlap, so one search reads those records once.
 */
const CLUSTER_GAP_MS = 2 * HISTORY_SLACK_MS;

/** One history search: the clientOrderIds of a run of sends and their first and last send. */
export interface SendCluster {
  readonly ids: string[];
  fromMs: number;
  toMs: number;
}

/**
 * The placements (clientOrderId, send time) grouped by send time, one group per run of sends no more
 * than CLUSTER_GAP_MS apart, with its first and last send. Why: one window from the oldest send to
 * the newest spans hours of a busy wallet's history, far more than a search reads (HttpExchange's
 * WINDOW_PAGES), while the minutes around each send hold few records; and a placement searched again
 * (UnsureSearches) does not widen the window of newer ones.
 * @example sendClusters([["a", 0], ["b", 1_000], ["c", 600_000]]) // [{ ids: ["a","b"] … }, { ids: ["c"] … }]
 */
export function sendClusters(sends: Iterable<readonly [string, number]>): SendCluster[] {
  const sorted = [...sends].sort((a, b) => a[1] - b[1]);
  const out: SendCluster[] = [];
  for (const [id, atMs] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && atMs - last.toMs <= CLUSTER_GAP_MS) {
      last.ids.push(id);
      last.toMs = atMs;
    } else {
      out.push({ ids: [id], fromMs: atMs, toMs: atMs });
    }
  }
  return out;
}

/** A cluster's search window on the exchange's clock (`offsetMs`: its clock minus ours), widened by the slack. */
export function clusterWindow(c: SendCluster, offsetMs = 0): TimeWindow {
  return { fromMs: c.fromMs + offsetMs - HISTORY_SLACK_MS, toMs: c.toMs + offsetMs + HISTORY_SLACK_MS };
}

/**
 * Searches the order history for unresolved placements of this run, one search per send cluster
 * (their send times, or creation when unsent, moved onto the exchange's clock): the orders found by
 * clientOrderId, and the ids a search cut short by its page bound did not find (`unsure`: they may
 * be there, so their absence proves nothing).
 */
export async function searchSent(
  source: { ordersByClientId(ids: readonly string[], window?: TimeWindow): Promise<ClientIdSearch> },
  orders: readonly TrackedOrder[],
  offsetMs = 0,
): Promise<{ byCid: Map<string, Order>; unsure: Set<string> }> {
  const byCid = new Map<string, Order>();
  const unsure = new Set<string>();
  for (const c of sendClusters(orders.map((o) => [o.clientOrderId, o.sentAtMs ?? o.createdAtMs] as const))) {
    const res = await source.ordersByClientId(c.ids, clusterWindow(c, offsetMs));
    for (const o of res.orders) if (o.clientOrderId !== undefined) byCid.set(o.clientOrderId, o);
    if (!res.complete) for (const id of c.ids) if (!byCid.has(id)) unsure.add(id);
  }
  return { byCid, unsure };
}

/**
 * Searches of one run's order history that ended at their page bound without finding a placement.
 * Only a complete search proves a placement was never placed; one not found by a cut-short search
 * stays unknown and is searched again at the next reconciles, up to MAX_UNSURE_SEARCHES such searches.
 */
export const MAX_UNSURE_SEARCHES = 5;

/**
 * How many cut-short searches missed each unresolved placement (RunReconcile's bound), kept across
 * reconciles by the engine.
 * @example if (unsure.missed(cid)) keepPending(); else giveUp();
 */
export class UnsureSearches {
  readonly #missed = new Map<string, number>();

  /** Counts one more cut-short search that missed `clientOrderId`; true while another may be made. */
  missed(clientOrderId: string): boolean {
    const n = (this.#missed.get(clientOrderId) ?? 0) + 1;
    this.#missed.set(clientOrderId, n);
    return n < MAX_UNSURE_SEARCHES;
  }

  /** Forgets every placement but those in `still` (answered, given up, or pruned since). */
  retain(still: ReadonlySet<string>): void {
    for (const id of this.#missed.keys()) if (!still.has(id)) this.#missed.delete(id);
  }

  /** Placements being counted. */
  get size(): number {
    return this.#missed.size;
  }
}
