import { monotonicNow } from "../core/clock.js";
import { MAX_UNSURE_SEARCHES } from "../execution/history-search.js";
import type { LookupFailure, ReconcileReport, TradesCapped } from "../execution/reconcile-run.js";
import type { SearchFailureStreaks } from "../execution/search-failures.js";
import type { EngineCore } from "./engine-core.js";
import type { ReconcileReason } from "./engine-events.js";

// The warnings a reconcile's report calls for (reconcileOnce, engine-reconcile-run.ts).

/**
 * A reconcile's trade paging reached its page bound before its cut-off. Served newest first: fills
 * stamped before the last page read were not looked at. Positions stay right (the drift check
 * follows the exchange's), but such a fill is in neither PnL nor the journal; at start, a fill made
 * while mm was down of the restored orders stays in the baseline. Said at warn, with what was being
 * searched. Served oldest first, the newer trades are read on by the next reconciles from where it
 * stopped (TradeResume): said at warn when a paging from a kept start is cut short, at debug for
 * each further reconcile reading on (`readOn`).
 */
export function warnTradesCapped(
  core: EngineCore,
  reason: ReconcileReason,
  capped: TradesCapped,
  readOn = false,
): void {
  const fields = {
    reason,
    pages: capped.pages,
    cutoff: capped.sinceMs === undefined ? undefined : new Date(capped.sinceMs).toISOString(),
    restoredOrders: core.restored.searching,
    feesAwaited: core.restored.awaiting,
  };
  const msg =
    "trade history: paging stopped at its page bound before its cut-off; the fills beyond it (the older ones, those made while mm was down among them; if the history is served oldest first, the newer ones, read on by the next reconciles) were not backfilled yet";
  if (readOn) core.log.debug(fields, msg);
  else core.log.warn(fields, msg);
}

/**
 * Unknown placements past their grace that a history search cut short did not find: kept unknown
 * (their level waits) and their window searched on from where it stopped a reconcile interval later, or given up after MAX_UNSURE_SEARCHES
 * such searches (not open on the exchange, so their level is freed; never journaled as never placed);
 * and the history searches that failed (the rest of the run went on).
 *
 * A failing search is said at warn when it starts failing (`failing`: the first failure of a
 * placement's streak), then at debug: the run that left placements unresolved is followed by another
 * (every 2 s, backing off to the periodic run while only failed searches leave them so), and a
 * warning at each buried the log. Once a placement's search has failed in a row for STUCK_SEARCH_MS,
 * its level waiting, that is said once more at warn, since mm never gives such a
 * placement up on its own (it may rest: a second quote there is double exposure), and when its
 * search answers again, at info.
 */
export function warnUnsure(core: EngineCore, report: ReconcileReport, failing?: SearchFailureStreaks): void {
  const { unsure, givenUp } = report;
  for (const f of report.searchFailures) {
    const err = f.error instanceof Error ? f.error.message : String(f.error);
    const first = failing === undefined || f.cursorDropped || f.ids.some((id) => failing.count(id) <= 1);
    const fields = { placements: f.ids, err, cursorDropped: f.cursorDropped };
    const msg =
      "unknown placements: their order-history search failed; left unknown for the next reconcile (a refused cursor: counted as one search, read from the window's start next time)";
    if (first) core.log.warn(fields, msg);
    else core.log.debug({ ...fields, failures: Math.max(...f.ids.map((id) => failing.count(id))) }, msg);
  }
  const { reached, recovered } = report.searchStreaks;
  if (reached.length > 0 && failing !== undefined) {
    const errs = report.searchFailures.filter((f) => f.ids.some((id) => reached.includes(id)));
    const at = monotonicNow(core.clock);
    core.log.warn(
      {
        placements: reached,
        failures: Math.max(...reached.map((id) => failing.count(id))),
        failingForMs: Math.max(...reached.map((id) => failing.failingForMs(id, at))),
        err: errs.map((f) => (f.error instanceof Error ? f.error.message : String(f.error))),
      },
      "unknown placements: their order-history search keeps failing; their levels wait, unquoted, until it answers (mm does not give them up: they may rest). Check GET /api/orders/history; said once (mm_reconcile_history_search_stuck_orders)",
    );
  }
  if (recovered.length > 0) {
    core.log.info(
      { placements: recovered },
      "unknown placements: their order-history search answers again (or they were answered)",
    );
  }
  if (unsure.length > 0) {
    core.log.warn(
      { placements: unsure },
      "unknown placements: the order history around their send times was longer than the search reads; not found is not proof they were never placed: searched on from where it stopped, after the reconcile interval",
    );
  }
  if (givenUp.length > 0) {
    core.log.warn(
      { placements: givenUp, searches: MAX_UNSURE_SEARCHES },
      "unknown placements: not found by cut-short history searches and not open on the exchange: given up (their level is quoted again)",
    );
  }
}

/**
 * Orders absent from the open list whose lookup (GET /api/orders/{id}) failed: their state stays in
 * doubt (a cancel whose effect is unknown, an order held open that may be gone) and the reconcile is
 * followed up soon (backing off while the same failed reads keep orders in doubt). Records the run's
 * failed lookups, made at `atMs` (monotonic), in `streaks`. Said at warn for an order whose lookup
 * starts failing, at debug while it goes on failing, at warn once more when it has failed at every
 * try for STUCK_SEARCH_MS (the order is held live, its level blocked and its exposure counted, while
 * every reconcile succeeds: mm_reconcile_lookup_stuck_orders, MmOrderLookupStuck), and at info once
 * the orders that failed are looked up (or gone) again.
 */
export function warnLookups(
  core: EngineCore,
  failures: readonly LookupFailure[],
  streaks: SearchFailureStreaks,
  atMs: number,
): void {
  const before = streaks.ids();
  const ids = failures.map((f) => f.clientOrderId);
  const failing = new Set(ids);
  const { reached } = streaks.record(ids, new Set(), failing, atMs);
  const errs = (fs: readonly LookupFailure[]) =>
    fs.map((f) => (f.error instanceof Error ? f.error.message : String(f.error)));
  const msg =
    "orders absent from the open list: their lookup failed; their state stays in doubt (a cancel's effect unknown) until a later reconcile reads it";
  if (failures.length > 0) {
    const fields = {
      orders: failures.map((f) => ({ clientOrderId: f.clientOrderId, orderId: f.orderId })),
      err: errs(failures),
    };
    if (ids.some((cid) => streaks.count(cid) <= 1)) core.log.warn(fields, msg);
    else core.log.debug({ ...fields, repeat: true }, msg);
  }
  if (reached.length > 0) {
    const stuck = failures.filter((f) => reached.includes(f.clientOrderId));
    core.log.warn(
      {
        orders: stuck.map((f) => ({ clientOrderId: f.clientOrderId, orderId: f.orderId })),
        failures: Math.max(...reached.map((cid) => streaks.count(cid))),
        failingForMs: Math.max(...reached.map((cid) => streaks.failingForMs(cid, atMs))),
        err: errs(stuck),
      },
      "orders absent from the open list: their lookup keeps failing; held live (levels blocked, exposure counted) until it answers. Check GET /api/orders/{id}; said once (mm_reconcile_lookup_stuck_orders)",
    );
  }
  const recovered = before.filter((cid) => !failing.has(cid));
  if (recovered.length > 0) {
    core.log.info(
      { orders: recovered },
      "orders whose lookup had failed: their state is read again (or settled otherwise)",
    );
  }
}
