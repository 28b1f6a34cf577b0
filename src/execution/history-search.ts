import { ExchangeError } from "../exchange/exchange-error.js";
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
  /**
   * When not complete: the cursor of the first page the search left unread. Passed back with the
   * same window (ordersByClientId's `resume`), a search reads on from there.
   */
  readonly resume?: string | undefined;
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

/** The order-history search by clientOrderId a history search needs (ReconcileSource.ordersByClientId). */
export interface ClientIdSource {
  ordersByClientId(ids: readonly string[], window?: TimeWindow, resume?: string): Promise<ClientIdSearch>;
}

/**
 * A search of one send cluster's window that its page bound cut short: where to read on. Shared by
 * the placements it missed, which are searched on together.
 */
export interface CutShortSearch {
  readonly window: TimeWindow;
  /** The cursor of its first unread page; undefined when the source gave none (read again from the start). */
  readonly resume: string | undefined;
  /** The searches of this window so far (the first and each read on). */
  readonly searches: number;
  /** When the last of them was made, on a clock that never steps (ReconcileRunOptions.unsureRepeat). */
  readonly atMs: number;
}

/** What searchSent found. */
export interface SentSearch {
  /** The orders found, by clientOrderId. */
  readonly byCid: Map<string, Order>;
  /** Placements a cut-short search did not find (they may be there): the search to read on. */
  readonly missed: Map<string, CutShortSearch>;
  /** Placements waiting on a cut-short search not read on this time (too soon: `repeat`). */
  readonly waiting: Set<string>;
  /**
   * Placements whose search failed (a read error other than a refused cursor): nothing learned, so
   * left unknown for the next reconcile; a held one keeps its cursor and count.
   */
  readonly unread: Set<string>;
  /** The searches that failed, one per send cluster (for the log). */
  readonly failures: SearchFailure[];
}

/** A history search that failed: its placements, the error, and whether its stored cursor was dropped. */
export interface SearchFailure {
  readonly ids: readonly string[];
  readonly error: unknown;
  /**
   * The exchange refused the stored cursor of a search read on (refusedCursor): it is dropped and
   * the refusal counted as one cut-short search (the next reads the window from its start).
   */
  readonly cursorDropped: boolean;
}

/**
 * Whether a read on from a stored cursor was refused for good: a 4xx other than 429 (rate limited)
 * and 401/403 (the key, not the request). The spec calls the cursor opaque and says nothing of how
 * long it stays valid (a deploy may change its encoding): sent again, it would be refused again.
 */
export function refusedCursor(e: unknown): boolean {
  if (!(e instanceof ExchangeError) || e.httpStatus === undefined) return false;
  const s = e.httpStatus;
  return s >= 400 && s < 500 && s !== 429 && s !== 401 && s !== 403;
}

/**
 * Searches the order history for unresolved placements of this run, one search per send cluster
 * (their send times, or creation when unsent, moved onto the exchange's clock): the orders found by
 * clientOrderId, and the ids a search cut short by its page bound did not find (`missed`: they may
 * be there, so their absence proves nothing). A placement `unsure` holds (an earlier search of its
 * window was cut short) is searched on from where that search stopped, in the same window, so each
 * repeat reads pages none read before and a later one can reach the window's end; only once
 * `repeat.everyMs` has passed since that search (`repeat.atMs`: now on the same clock), else it waits.
 * A search that fails fails alone (`failures`), never the whole call: its placements stay unknown
 * (`unread`), except that a stored cursor the exchange refuses (refusedCursor) is dropped and counted
 * as one cut-short search (`missed`, read from the window's start next time), so a bad cursor costs a
 * search, not every later reconcile of the run.
 */
export async function searchSent(
  source: ClientIdSource,
  orders: readonly TrackedOrder[],
  offsetMs = 0,
  unsure?: UnsureSearches,
  repeat?: { readonly everyMs: number; readonly atMs: number },
): Promise<SentSearch> {
  const out: SentSearch = {
    ...{ byCid: new Map(), missed: new Map(), waiting: new Set() },
    ...{ unread: new Set(), failures: [] },
  };
  const atMs = repeat?.atMs ?? 0;
  const fresh: TrackedOrder[] = [];
  const resumed = new Map<CutShortSearch, string[]>();
  for (const o of orders) {
    const held = unsure?.held(o.clientOrderId);
    if (held === undefined) fresh.push(o);
    else if (repeat !== undefined && atMs - held.atMs < repeat.everyMs) out.waiting.add(o.clientOrderId);
    else resumed.set(held, [...(resumed.get(held) ?? []), o.clientOrderId]);
  }
  const search = async (ids: string[], window: TimeWindow, before: CutShortSearch | undefined) => {
    let res: ClientIdSearch;
    try {
      res = await source.ordersByClientId(ids, window, before?.resume);
    } catch (error) {
      const cursorDropped = before?.resume !== undefined && refusedCursor(error);
      out.failures.push({ ids, error, cursorDropped });
      if (!cursorDropped) for (const id of ids) out.unread.add(id);
      else {
        const next = { window, resume: undefined, searches: before.searches + 1, atMs };
        for (const id of ids) out.missed.set(id, next);
      }
      return;
    }
    for (const o of res.orders) if (o.clientOrderId !== undefined) out.byCid.set(o.clientOrderId, o);
    if (res.complete) return;
    const next = { window, resume: res.resume, searches: (before?.searches ?? 0) + 1, atMs };
    for (const id of ids) if (!out.byCid.has(id)) out.missed.set(id, next);
  };
  for (const [held, ids] of resumed) await search(ids, held.window, held);
  for (const c of sendClusters(fresh.map((o) => [o.clientOrderId, o.sentAtMs ?? o.createdAtMs] as const))) {
    await search(c.ids, clusterWindow(c, offsetMs), undefined);
  }
  return out;
}

/**
 * Searches of one window (a send cluster's) that a placement may be missed by, all cut short by their
 * page bound, each read on from where the last stopped (at most WINDOW_PAGES new pages each, so at
 * most 5 × 25 pages of 200 per window). Only a complete search proves a placement was never placed;
 * one still not found after this many is given up.
 */
export const MAX_UNSURE_SEARCHES = 5;

/**
 * The cut-short searches that missed each unresolved placement, kept across reconciles by the
 * engine: the next search of such a placement reads on from where the last stopped
 * (searchSent), up to MAX_UNSURE_SEARCHES searches.
 * @example if (unsure.keep(cid, missed)) keepUnknown(); else giveUp();
 */
export class UnsureSearches {
  readonly #held = new Map<string, CutShortSearch>();

  /** The cut-short search `clientOrderId` waits on, if any. */
  held(clientOrderId: string): CutShortSearch | undefined {
    return this.#held.get(clientOrderId);
  }

  /**
   * Keeps `clientOrderId` waiting on `search` (which missed it), to be read on later; false, and
   * forgotten, once MAX_UNSURE_SEARCHES searches have missed it: give it up.
   */
  keep(clientOrderId: string, search: CutShortSearch): boolean {
    if (search.searches >= MAX_UNSURE_SEARCHES) {
      this.#held.delete(clientOrderId);
      return false;
    }
    this.#held.set(clientOrderId, search);
    return true;
  }

  /** Forgets every placement but those in `still` (answered, given up, or pruned since). */
  retain(still: ReadonlySet<string>): void {
    for (const id of this.#held.keys()) if (!still.has(id)) this.#held.delete(id);
  }

  /** Placements held. */
  get size(): number {
    return this.#held.size;
  }
}
