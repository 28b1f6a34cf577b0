import { type OrderFill, TradePagingOrder } from "../exchange/assumptions.js";
import type { Order, TradeRecord } from "../exchange/types.js";
import {
  type ClientIdSearch,
  type SearchAnswer,
  type SearchFailure,
  searchSent,
  type TimeWindow,
} from "./history-search.js";
import type { OrderUpdate } from "./order-store.js";
import { seedAdoptedFills } from "./reconcile-adopted-fills.js";
import type { ReconcileState } from "./reconcile-fills.js";
import {
  type LookupFailure,
  lookupGhosts,
  lookupOrder,
  NEVER_PLACED,
  NOT_FOUND,
  resolveGhost,
} from "./reconcile-ghosts.js";
import { reconcileOpenOrders } from "./reconcile-open-orders.js";
import { adoptOrphans, type TokenOfOrder } from "./reconcile-orphans.js";
import { type BackfillReport, backfillTrades } from "./reconcile-trades.js";
import type { StreakChange } from "./search-failures.js";

/** The reads a REST reconcile needs (ExchangePort plus an order-history search by clientOrderId). */
export interface ReconcileSource {
  /** GET /api/orders/open. */
  openOrders(): Promise<Order[]>;
  /** GET /api/orders/{id}; rejects with ExchangeError `order_not_found` when there is none. */
  order(orderId: string): Promise<Order>;
  /**
   * The wallet's orders (any status) carrying these clientOrderIds, from GET /api/orders/history;
   * `window` (epoch ms) bounds the search to the orders created in it, when given; `resume` (a
   * cut-short search's ClientIdSearch.resume, same window) reads on from where that search stopped.
   */
  ordersByClientId(
    clientOrderIds: readonly string[],
    window?: TimeWindow,
    resume?: string,
  ): Promise<ClientIdSearch>;
  /** GET /api/me/trades, newest first. */
  trades(opts: {
    limit?: number;
    cursor?: string;
  }): Promise<{ trades: TradeRecord[]; nextCursor: string | null }>;
  /**
   * GET /api/orders/{id}/fills: every fill of one of the wallet's orders (`id` taken to be the
   * tradeId, as on a REST trade). Read for orders adopted partly filled (reconcile-adopted-fills.ts);
   * without it an adopted order's fills before this run are known only as its filledQty.
   */
  orderFills?(orderId: string): Promise<OrderFill[]>;
}

/** How runReconcile treats orphans, pages trades and waits for answers in flight. */
export interface ReconcileRunOptions {
  /** Adopt orphans instead of reporting them for cancellation. */
  readonly adopt?: boolean;
  readonly tokenOf: TokenOfOrder;
  /** Stop paging trades at the first page holding a trade older than this (epoch ms). Default: all pages. */
  readonly tradesSinceMs?: number;
  /**
   * Bound on trade pages (DEFAULT_TRADE_PAGES): reaching it before `tradesSinceMs` leaves older
   * trades unread, which the report says (`tradesCapped`).
   */
  readonly maxTradePages?: number;
  readonly tradePageSize?: number;
  /** See OpenOrdersOptions / GhostOptions. */
  readonly cancellingGraceMs?: number;
  readonly unknownGraceMs?: number;
  /**
   * Exchange clock minus ours (ms, default 0): our send times are moved onto the exchange's clock
   * before searching its order history, whose createdAt is its own, so a skew beyond the search's
   * slack does not search the wrong minutes.
   */
  readonly clockOffsetMs?: number;
  /**
   * Spacing of the repeated searches of an unknown placement a cut-short search missed (searchSent):
   * one is read on only `everyMs` after the last (`atMs`: now, on a clock that never steps), whatever
   * triggered this run. Default: at every run.
   */
  readonly unsureRepeat?: { readonly everyMs: number; readonly atMs: number };
  /**
   * Called with the run's answers (ReconcileReport.answered) as soon as the store holds them, before
   * any later read of this run: those found on the open list right after it is read (before the ghost
   * lookups and the history search), then the history search's once it is over (before the orphans'
   * fills and the trades). A later read failing rejects the run without a report, and the store no
   * longer holds those placements unresolved, so no later run would answer them again.
   */
  readonly onAnswered?: (answers: readonly SearchAnswer[]) => void;
  /**
   * Called with the run's count of orders left in doubt (ReconcileReport.pending + inDoubt), and of
   * those the count left so by a failed read (ReconcileReport.unread; `failing`: their clientOrderIds),
   * once known, before the orphans' fills and the trades are read: a run that fails at a later read
   * still has them followed up soon (ReconcileScheduler).
   */
  readonly onPending?: (pending: number, unread: number, failing: readonly string[]) => void;
  /**
   * Now on a clock that never steps (monotonicNow), for how long a history search has been failing
   * (SearchFailureStreaks). Default `now`.
   */
  readonly monotonicMs?: number;
}

/** What one REST reconcile found and did (for the log, metrics and the engine's follow-ups). */
export interface ReconcileReport {
  readonly updates: readonly OrderUpdate[];
  /** Orphans to cancel (all of them unless adopting; with `adopt`, those that could not be adopted). */
  readonly orphans: readonly Order[];
  readonly adopted: number;
  /**
   * Adopted orders (exchange ids) already partly filled whose earlier fills could not be read
   * (seedAdoptedFills): they reach `filled` from a later reconcile rather than from their fills.
   */
  readonly adoptedFillsUnread: readonly string[];
  /** Unknown orders still unresolved (within their grace period, or their history search failed). */
  readonly pending: number;
  /**
   * Orders with an orderId whose state this run could not settle: absent from the open list and their
   * lookup failed (`lookupFailures`), or a cancel still in doubt after it. Followed up like `pending`.
   */
  readonly inDoubt: number;
  /** Of `pending` and `inDoubt`, those left so because their read (history search, lookup) failed. */
  readonly unread: number;
  /** Lookups of orders absent from the open list that failed (each order stays as it was, in doubt). */
  readonly lookupFailures: readonly LookupFailure[];
  /**
   * History searches that failed: their placements stay unknown for the next reconcile (or, a stored
   * cursor refused, count one cut-short search), and the rest of the run goes on.
   */
  readonly searchFailures: readonly SearchFailure[];
  /**
   * Placements whose history search has now been failing in a row for STUCK_SEARCH_MS, and those
   * that were so and are no more (ReconcileState.failing; both empty without it).
   */
  readonly searchStreaks: StreakChange;
  /**
   * Unknown orders past their grace that a history search cut short by its page bound did not find:
   * kept unknown (not proven never placed), searched on from where it stopped at a later reconcile
   * (UnsureSearches, `unsureRepeat`).
   */
  readonly unsure: readonly string[];
  /**
   * Unknown orders given up after MAX_UNSURE_SEARCHES cut-short searches: not open on the exchange
   * (its open list is complete), so taken as ended (`rejected`, reason UNSURE_GIVEN_UP) to free their
   * level, though never proven unplaced.
   */
  readonly givenUp: readonly string[];
  /**
   * The unknown placements this run answered: found on the open list by clientOrderId, or by the
   * history search: found, proven never placed, or given up.
   * The engine reports them (`placements_answered`) for the journal, which would otherwise keep them
   * unanswered: kept by retention for the whole run, and searched again at the next start.
   */
  readonly answered: readonly SearchAnswer[];
  readonly backfill: BackfillReport;
  /**
   * Set when the trade paging stopped at maxTradePages with more pages to read before reaching
   * `tradesSinceMs`: fills stamped before the last page read were not looked at.
   */
  readonly tradesCapped: TradesCapped | undefined;
}

/** A trade paging cut short by its page bound (ReconcileReport.tradesCapped). */
export interface TradesCapped {
  /** Pages read (the bound). */
  readonly pages: number;
  /** The instant the paging was to reach (tradesSinceMs); undefined: the whole history. */
  readonly sinceMs: number | undefined;
}

/** Trade pages a reconcile reads at most unless told otherwise (of up to 200 trades each). */
export const DEFAULT_TRADE_PAGES = 50;

/**
 * One full REST reconcile, in the order that lets each step use what the previous one learned:
 * 1. open orders → updates, orphans, ghosts, unresolved unknowns;
 * 2. each ghost by GET /api/orders/{id} (a failed lookup leaves it in doubt: `inDoubt`); unresolved unknowns by clientOrderId in the history, around
 *    their send times (searchSent); one past its grace is `never_placed` only when that search read
 *    its whole window, else kept unknown and searched on later from where it stopped (`unsure`,
 *    bounded: `givenUp`);
 *    orphans adopted (`adopt`), the earlier fills of those already partly filled read (orderFills);
 * 3. trades backfill (orders resolved in 2 map their trades to tokens); trades of orders still unknown
 *    to the store are mapped by fetching their order (tokenOf).
 * Fills keep arriving over the WebSocket meanwhile; every step is idempotent and order-independent
 * with them. The caller applies the orphan cancels, runs the position check and schedules the next run.
 * All time comes from `now`, and the unknown-order grace from the store's ages (OrderStore.agesAt).
 */
export async function runReconcile(
  source: ReconcileSource,
  state: ReconcileState,
  now: number,
  opts: ReconcileRunOptions,
): Promise<ReconcileReport> {
  const store = state.orders;
  // Ages as of `now`, before any read: a placement not found by a read may have had its grace only
  // by the time the read was sent (elapsed time where the store has a monotonic clock).
  const ages = store.agesAt(now);
  const diff = reconcileOpenOrders(store.all(), await source.openOrders(), now, {
    changedAgeMs: ages.changedMs,
    ...(opts.cancellingGraceMs === undefined ? {} : { graceMs: opts.cancellingGraceMs }),
  });
  const updates: OrderUpdate[] = [...diff.updates];
  const answered: SearchAnswer[] = [];
  for (const u of diff.updates) {
    const before = store.get(u.clientOrderId);
    // An ambiguous placement found resting by its clientOrderId is answered like one the search
    // finds, at once: the journal otherwise learned its orderId only from the orders held live once
    // the run succeeded, and not at all when a later read failed it, or its order ended first.
    const found = before?.state === "unknown" && before.orderId === undefined && u.orderId !== undefined;
    if (store.reconcile(u, now) && found) {
      answered.push({
        ...searchAnswer(u.clientOrderId, undefined, false),
        orderId: u.orderId,
        marketId: before.marketId,
      });
    }
  }
  // Reported before any other read: a ghost lookup or a history search failing would reject the run
  // with these bound in the store, and no later run sees them as found again.
  if (answered.length > 0) opts.onAnswered?.([...answered]);
  const listed = answered.length;
  const ghostOpts = {
    sentAgeMs: ages.sentMs,
    ...(opts.unknownGraceMs === undefined ? {} : { graceMs: opts.unknownGraceMs }),
  };
  const looked = await lookupGhosts(source, store, diff.ghosts, now, ghostOpts);
  updates.push(...looked.updates);
  const { inDoubt, failures: lookupFailures } = looked;
  const unreadIds = lookupFailures.map((f) => f.clientOrderId);
  let pending = 0;
  const unsure: string[] = [];
  const givenUp: string[] = [];
  let waiting: ReadonlySet<string> = new Set();
  let unread: ReadonlySet<string> = new Set();
  let searchFailures: readonly SearchFailure[] = [];
  if (diff.unresolved.length > 0) {
    const found = await searchSent(
      source,
      diff.unresolved,
      opts.clockOffsetMs,
      state.unsure,
      opts.unsureRepeat,
    );
    waiting = found.waiting;
    unread = found.unread;
    searchFailures = found.failures;
    for (const o of diff.unresolved) {
      const cid = o.clientOrderId;
      // Its cut-short search is read on later: nothing new about it now.
      if (waiting.has(cid)) continue;
      // Bound to an orderId while the search was on its way (a user_fill named it, and answered it:
      // FillIntake): no longer the placement searched for. The search's "not found" would end it as
      // a ghost while it rests, and its "found" answer it twice; the next run follows it by its id.
      if (o.orderId !== undefined) {
        pending++;
        continue;
      }
      // Its search failed: nothing learned, so neither found nor never placed; the next run searches it.
      if (unread.has(cid)) {
        pending++;
        unreadIds.push(cid);
        continue;
      }
      const u = resolveGhost(o, found.byCid.get(cid) ?? NOT_FOUND, now, ghostOpts);
      // Within its grace (u undefined: pending) a cut-short search is not kept to be read on: the
      // next run searches the window afresh. The history's page order is not relied on, and newest
      // first a cursor only goes back in time, past the front where a placement created late (after
      // its answer timed out) appears; a chain of read-on searches begun in the grace could then read
      // to the window's end without it and "prove" it never placed. The first search past the grace
      // starts the chain, once every late creation is in the history.
      // Not found by a search cut short: that proves nothing, so not `never_placed` (as at start,
      // resolveUnanswered). Searched on from where it stopped, up to the bound (counted only with the
      // engine's UnsureSearches; without one, searched again from the start and never given up).
      const missed = found.missed.get(cid);
      if (u?.reason === NEVER_PLACED && missed !== undefined) {
        if (state.unsure?.keep(cid, missed) ?? true) {
          unsure.push(cid);
          continue;
        }
        const g: OrderUpdate = { clientOrderId: cid, state: "rejected", reason: UNSURE_GIVEN_UP };
        if (store.reconcile(g, now)) updates.push(g);
        givenUp.push(cid);
        answered.push(searchAnswer(cid, undefined, true));
        continue;
      }
      if (u !== undefined && store.reconcile(u, now)) {
        updates.push(u);
        answered.push(searchAnswer(cid, found.byCid.get(cid), false));
      } else pending++;
    }
  }
  state.unsure?.retain(new Set([...unsure, ...waiting, ...unread]));
  const searchStreaks = state.failing?.record(
    diff.unresolved.map((o) => o.clientOrderId),
    waiting,
    unread,
    opts.monotonicMs ?? now,
  ) ?? { reached: [], recovered: [] };
  if (answered.length > listed) opts.onAnswered?.(answered.slice(listed));
  opts.onPending?.(pending + inDoubt, unreadIds.length, unreadIds);
  let orphans = diff.orphans;
  let adopted = 0;
  let adoptedFillsUnread: readonly string[] = [];
  if (opts.adopt === true && orphans.length > 0) {
    const res = adoptOrphans(store, orphans, opts.tokenOf, now);
    adopted = res.adopted.length;
    orphans = res.rejected;
    if (source.orderFills !== undefined) {
      const read = source.orderFills.bind(source);
      adoptedFillsUnread = (await seedAdoptedFills(read, store, res.adopted, now)).unread;
    }
  }
  const { trades, createdAtMs, capped } = await collectTrades(source, opts);
  // Every read before anything is applied: a lookup failing after some fills (or a restored fill's
  // fee) were applied lost them from the report, so the journal never had their fill rows, and a
  // fill made while mm was down was applied again at the next start.
  const tokens = new Map<string, string | undefined>();
  for (const t of trades) {
    if (tokens.has(t.orderId) || store.byOrderId(t.orderId) !== undefined) continue;
    const tsMs = createdAtMs.get(t) ?? Date.parse(t.createdAt);
    if (state.restored?.holds(t.id, t.orderId, tsMs) === true) continue;
    // An earlier run's order: the journal names its token (the exchange may have forgotten it).
    if (state.restored?.tokenOf?.(t.orderId) !== undefined) continue;
    const o = await lookupOrder(source, t.orderId);
    tokens.set(t.orderId, o === NOT_FOUND ? undefined : opts.tokenOf(o));
  }
  const backfill = backfillTrades(state, trades, { tokenOfOrder: (id) => tokens.get(id), createdAtMs });
  return {
    ...{ updates, orphans, adopted, adoptedFillsUnread, pending, unsure, givenUp, answered, backfill },
    ...{ inDoubt, unread: unreadIds.length, lookupFailures },
    searchFailures,
    searchStreaks,
    tradesCapped: capped,
  };
}

/**
 * The trade pages back to `tradesSinceMs` (a page reaching before it ends the paging when the
 * paging runs newest first), and each record's createdAt parsed (epoch ms; NaN when
 * unreadable) as its page arrives: the backfill reads the same instants. `capped` when the page
 * bound ended the paging with a cursor still to follow.
 */
async function collectTrades(
  source: ReconcileSource,
  opts: ReconcileRunOptions,
): Promise<{
  trades: TradeRecord[];
  createdAtMs: Map<TradeRecord, number>;
  capped: TradesCapped | undefined;
}> {
  const trades: TradeRecord[] = [];
  const createdAtMs = new Map<TradeRecord, number>();
  const since = opts.tradesSinceMs;
  const maxPages = opts.maxTradePages ?? DEFAULT_TRADE_PAGES;
  const order = new TradePagingOrder();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await source.trades({
      limit: opts.tradePageSize ?? 200,
      ...(cursor === undefined ? {} : { cursor }),
    });
    const stamps: number[] = [];
    for (const t of res.trades) {
      const ms = Date.parse(t.createdAt);
      createdAtMs.set(t, ms);
      stamps.push(ms);
      trades.push(t);
    }
    // A page reaching before `since` ends the paging only if the paging runs newest first (the spec
    // shows no order: TradePagingOrder). An empty page with a cursor goes on too: the engine's source
    // filters pages, and trades it looks for may lie behind one it emptied (maxTradePages bounds an
    // exchange that never ends).
    const newestFirst = order.newestFirst(stamps);
    const older = newestFirst && since !== undefined && stamps.some((ms) => ms < since);
    if (res.nextCursor === null || older) return { trades, createdAtMs, capped: undefined };
    cursor = res.nextCursor;
  }
  return { trades, createdAtMs, capped: { pages: maxPages, sinceMs: since } };
}

export type { ClientIdSearch, TimeWindow } from "./history-search.js";
export { HISTORY_SLACK_MS } from "./history-search.js";
export type { LookupFailure } from "./reconcile-ghosts.js";

/** The `reason` of an unknown order given up after MAX_UNSURE_SEARCHES cut-short history searches. */
export const UNSURE_GIVEN_UP = "history_search_capped";

function searchAnswer(clientOrderId: string, o: Order | undefined, givenUp: boolean): SearchAnswer {
  return { clientOrderId, orderId: o?.id, marketId: o?.marketId, status: o?.status, givenUp };
}
