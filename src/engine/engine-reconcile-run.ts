import { monotonicNow } from "../core/clock.js";
import { UnsureSearches } from "../execution/history-search.js";
import { orphanCancels } from "../execution/reconcile-orphans.js";
import { checkPositions, type PositionDrift } from "../execution/reconcile-positions.js";
import { type ReconcileSource, runReconcile } from "../execution/reconcile-run.js";
import { missedSearchPages } from "../execution/restored-fees.js";
import { SearchFailureStreaks } from "../execution/search-failures.js";
import { TradeResume } from "../execution/trade-resume.js";
import type { EngineCore } from "./engine-core.js";
import type { ReconcileReason, ReconcileSummary } from "./engine-events.js";
import { afterFees, afterFill, grossMark, requoteExposed } from "./engine-fills.js";
import { readPositionsAt } from "./engine-positions.js";
import type { ReconcileOutcome } from "./engine-reconcile.js";
import type { DriftRecordGate } from "./market-record-read.js";
import { recognisedCount, recognising } from "./recognise.js";
import { warnLookups, warnTradesCapped, warnUnsure } from "./reconcile-warnings.js";
import { resolveUnanswered } from "./resolve-unanswered.js";
import { orderFillsOf, sessionTrades } from "./session-trades.js";

/** What one reconcile carries over to the next. */
export interface ReconcileMemory {
  /**
   * The previous position check's drifts, each with when it was first seen (a drift seen identically
   * in consecutive checks, first seen at least reconcileDriftSettleMs ago, is corrected) and when
   * its token's run of drifting checks began (mm_reconcile_position_drift_seconds).
   */
  priorDrifts: readonly PositionDrift[];
  /** Reads of drifted markets' records that the corrections there wait on (market-record-read.ts). */
  readonly driftReads: DriftRecordGate;
  /** Cut-short history searches that missed each unknown placement (runReconcile's bound); made by the first run. */
  unsure?: UnsureSearches;
  /**
   * Start of the last successful run, on the exchange's clock (see clockOffsetMs); trades older than
   * it minus the lookback are not paged again.
   */
  lastOkAtMs: number | undefined;
  /** When the run of lastOkAtMs started, on the monotonic clock (monotonicNow). */
  lastOkMonoMs?: number;
  /**
   * Set by a run that failed after its trade backfill (the positions read refused, say): its start
   * on the exchange's clock, lastOkAtMs moved on by the elapsed monotonic time (no fresh offset was
   * read). Every trade back to that run's cut-off was applied, so the next run pages back only to
   * this minus the lookback: a failure that lasts no longer pages ever further back to the last
   * success at each retry. Cleared by a run that succeeds.
   */
  tradesReadAtMs?: number | undefined;
  /**
   * The exchange's clock minus ours, at most (clockOffsetSample): the last run's positions read
   * (its X-Server-Time minus our clock once answered), or before the first run the session start
   * (the baseline's instant) minus our clock when that run began. Refreshed by every run, so a local
   * clock that steps or drifts while the daemon runs (NTP, a VM paused) is followed.
   */
  clockOffsetMs?: number;
  /** Failures in a row of each unresolved placement's history search (warnUnsure); made by the first run. */
  failing?: SearchFailureStreaks;
  /** Failures in a row of each order's lookup (GET /api/orders/{id}, warnLookups); made by the first run. */
  lookupsFailing?: SearchFailureStreaks;
  /** Set once the earlier runs' unanswered placements were looked up (resolveUnanswered). */
  unansweredDone?: boolean;
  /** Where the next trade paging starts, on a history served oldest first (TradeResume); made by the first run. */
  trades?: TradeResume;
}

/**
 * One REST reconcile (runReconcile) and its follow-ups:
 * - order states the exchange's view changed → requote those tokens;
 * - orphans → cancelled through the queue (or adopted when `adopt`, the start-up option);
 * - fills missed by the stream → backfilled (trades since the session start only: earlier ones are in
 *   the baseline), then handled like stream fills (PnL, kill switch, requote);
 * - fees of an earlier run's fills restored without their fee (RestoredFees): the trade history is
 *   paged back to the oldest of them, and their trades only set the fee (afterFees);
 * - fills made while mm was down of the orders an earlier run left (the journal's restore): until
 *   a run succeeds, the history is paged back to those orders' placement, and each such trade no
 *   run journaled, stamped before the session start, is applied to the restored account with the
 *   baseline adjusted by its shares (RestoredFees.takeMissed), then handled like a backfilled fill;
 *   their token is the journal's (a trade names none), and a fill on a token this engine does not
 *   trade goes to the listener alone (`restored_fill`, for the journal). This search pages up to
 *   missedSearchPages (rateLimitPerMin); any paging that reaches its bound before its cut-off is warned about
 *   and flagged in the summary (`tradePagesCapped`);
 * - a trade history served oldest first: each paging starts where the last one left it (TradeResume,
 *   in `memory.trades`): read on from a capped paging's cursor (its cut-off kept, the inventory's
 *   compaction held at its reach, the restored orders' search and fee wait held until the end), else
 *   at the last page before the cut-off; a kept cursor the exchange refuses is dropped (warn);
 * - fees the trade records now carry (set after settlement, usually on fills the stream delivered)
 *   → the tokens' PnL and exposure refreshed, the kill switch fed, the tokens requoted (afterFees);
 * - positions: absolute local (baseline + inventory) against GET /api/me/positions for the engine's
 *   tokens; a drift seen identically in consecutive checks and first seen at least
 *   reconcileDriftSettleMs ago, on a token with no fill matched within that window before the read
 *   (a fill moves the positions only at its settlement, and reconciles can run 250 ms apart), is
 *   corrected in inventory (relative to the baseline) and reported through the listener, and the
 *   tokens whose inventory limits moved are requoted;
 * - terminal orders older than pruneAfterMs are forgotten, and inventory compacts the fills stamped
 *   before the next run's trade cut-off (no backfill can bring them again).
 * `counted` hears the orders left in doubt (unresolved unknown placements, orders whose lookup failed)
 * as soon as the run has them (before its trade and positions reads), so a run that fails later is
 * still followed up as one that left them pending.
 */
export async function reconcileOnce(
  core: EngineCore,
  memory: ReconcileMemory,
  reason: ReconcileReason,
  sessionStartMs: number,
  adopt: boolean,
  counted?: (left: ReconcileOutcome) => void,
): Promise<ReconcileSummary> {
  const { clock, tokens, positions, options } = core;
  const started = clock.now();
  const startedMono = monotonicNow(clock);
  // Cancels confirmed before the trade read: their fills up to the cancel are in it (once applied).
  const cancelsMark = core.store.cancelled.mark();
  // Trade cut-offs and the compaction floor are compared with the exchange's stamps (createdAt,
  // tsMs), so they are taken on its clock: on ours, running ahead by more than the lookback, the
  // floor would pass the exchange's present and refuse every new fill as a late duplicate. The
  // offset is a lower bound, so these instants err early, which only pages and keeps a little more.
  // This one (the last run's) serves the history search; the run's own instant waits for its read.
  const priorOffsetMs = memory.clockOffsetMs ?? sessionStartMs - started;
  const last = memory.tradesReadAtMs ?? memory.lastOkAtMs ?? sessionStartMs;
  // A history served oldest first being caught up keeps the cut-off it began with (TradeResume).
  memory.trades ??= new TradeResume();
  const resume = memory.trades;
  const tradesSince = resume.sinceMs(Math.max(sessionStartMs, last - options.tradeLookbackMs));
  // Placements of earlier runs with no definite answer: found by clientOrderId, they join the restored
  // orders before the search below (their fills made while mm was down).
  if (reason === "startup" && memory.unansweredDone !== true) {
    memory.unansweredDone = await resolveUnanswered(core, core.exchange, priorOffsetMs);
  }
  // Fees still to come for fills of an earlier run: page back to the oldest, keep only those trades.
  const restored = core.restored;
  const oldest = restored.oldestAwaitedMs();
  // (A second of margin: a trade's createdAt is taken to be its fill's tsMs, to the millisecond.)
  const feesBackTo = oldest === undefined ? tradesSince : Math.min(tradesSince, oldest - 1_000);
  // Until a run succeeds, also back to the restored orders' placement: their trades made while mm
  // was down (RestoredFees.takeMissed).
  const searchFrom = restored.searchFromMs();
  const pageBackTo = searchFrom === undefined ? feesBackTo : Math.min(feesBackTo, searchFrom);
  // Only the start-up run meets orders an earlier run left; later orphans are no run's of ours.
  memory.unsure ??= new UnsureSearches();
  memory.failing ??= new SearchFailureStreaks();
  const source =
    reason === "startup"
      ? withOrderFills(recognising(core.exchange, restored.orders()), core.exchange)
      : core.exchange;
  const paging = resume.begin(pageBackTo, tradesSince);
  const refused = (cursor: string, error: unknown) =>
    core.log.warn(
      { cursor, err: error instanceof Error ? error.message : String(error) },
      "trade history: the exchange refused the cursor kept from the last reconcile; read from the start",
    );
  const report = await runReconcile(
    sessionTrades(
      source,
      tradesSince,
      {
        pageBackToMs: pageBackTo,
        keep: (t) => restored.awaits(t.id, t.orderId) || restored.searches(t.orderId),
      },
      { paging, refused },
    ),
    {
      orders: core.store,
      inventory: core.inventory,
      restored: restored.before(sessionStartMs),
      unsure: memory.unsure,
      failing: memory.failing,
    },
    started,
    {
      adopt,
      tokenOf: (o) => tokens.tokenOf(o),
      tradesSinceMs: pageBackTo,
      // Back past the ordinary window for an earlier run's fills: a busy wallet's history is long.
      ...(pageBackTo < tradesSince ? { maxTradePages: missedSearchPages(options.rateLimitPerMin) } : {}),
      unknownGraceMs: options.unknownGraceMs,
      clockOffsetMs: priorOffsetMs,
      // A cut-short search is read on once per reconcile interval, however often other triggers (the
      // 2 s follow-ups, ended orders) run a reconcile; on elapsed time, so a clock step does not
      // hasten nor hold them. (The periodic run itself is no anchor: every run re-arms its timer.)
      unsureRepeat: { everyMs: options.reconcileIntervalMs, atMs: monotonicNow(clock) },
      // Once the store holds them, before any later read (in the run or after it) can fail the run.
      onAnswered: (placements) => core.emit({ type: "placements_answered", atMs: clock.now(), placements }),
      // Before the trades and positions are read: a run failing there still has its orders in doubt
      // (unresolved placements, failed lookups) followed up soon, not at the failure backoff's pace.
      ...(counted === undefined
        ? {}
        : { onPending: (pending, unread, failing) => counted({ pending, unread, failing }) }),
      monotonicMs: monotonicNow(clock),
    },
  );
  // Every trade back to the cut-off is applied (runReconcile reads them all before applying any):
  // should a later step fail, the retry need not page back past this run's start again.
  if (memory.lastOkAtMs !== undefined && memory.lastOkMonoMs !== undefined) {
    memory.tradesReadAtMs = memory.lastOkAtMs + (startedMono - memory.lastOkMonoMs);
  }
  // Its trades applied: the next paging starts where this one leaves it (a history served oldest first).
  const wasCatchingUp = resume.catchingUp;
  paging.commit(report.tradesCapped !== undefined);
  if (report.tradesCapped !== undefined) warnTradesCapped(core, reason, report.tradesCapped, paging.readOn);
  else if (wasCatchingUp)
    core.log.info({ reason }, "trade history (served oldest first): read on to its end");
  warnUnsure(core, report, memory.failing);
  memory.lookupsFailing ??= new SearchFailureStreaks();
  warnLookups(core, report.lookupFailures, memory.lookupsFailing, startedMono);
  // Every trade of the restored orders back to their placement has been through the backfill (or
  // lies beyond the page bound, just warned about: paging there again at every reconcile would not
  // reach it either). A history served oldest first being caught up has not reached them yet.
  if (!resume.catchingUp) restored.endSearch();
  for (const u of report.updates) {
    const t = core.store.get(u.clientOrderId)?.tokenId;
    if (t !== undefined) core.requote(t);
  }
  for (const f of report.backfill.applied) afterFill(core, f, "backfill");
  // Read to its end, the trade history holds every fill matched before those cancels: their
  // remainders stop counting against the caps (OrderStore.cancelled), and a side they held
  // back is quoted again.
  if (report.tradesCapped === undefined && !resume.catchingUp) {
    for (const t of core.store.cancelled.settle(cancelsMark)) core.requote(t);
  }
  for (const { fill, fee } of report.backfill.foreign) {
    core.emit({ type: "restored_fill", atMs: clock.now(), fill, fee });
  }
  if (report.backfill.foreign.length > 0) {
    core.log.info(
      {
        fills: report.backfill.foreign.map(({ fill }) => ({ tradeId: fill.tradeId, tokenId: fill.tokenId })),
      },
      "fills of an earlier run's orders on tokens this run does not trade: handed to the journal",
    );
  }
  afterFees(core);
  if (report.adoptedFillsUnread.length > 0) {
    core.log.warn(
      { orders: report.adoptedFillsUnread },
      "adopted orders: earlier fills unreadable, their filled quantity waits for a reconcile",
    );
  }
  if (report.orphans.length > 0) {
    const recognised = recognisedCount(report.orphans, restored.orders());
    core.log.warn({ orphans: report.orphans.map((o) => o.id), recognised }, "orphan orders: cancelling");
    core.send(orphanCancels(report.orphans, (o) => tokens.tokenOf(o)));
  }
  const read = await readPositionsAt(core.exchange);
  const now = clock.now();
  const sample = clockOffsetSample(read.asOfMs, now);
  if (sample !== undefined) memory.clockOffsetMs = sample;
  else memory.clockOffsetMs ??= priorOffsetMs;
  // The run's start on the exchange's clock. Each offset is a lower bound at its own instant, one
  // taken before `started` and one after it: a step between them (either way) leaves at least
  // one of them at or below the offset in force at `started`, so the smaller errs early.
  const offsetMs = Math.min(priorOffsetMs, sample ?? priorOffsetMs);
  const startedX = started + offsetMs;
  // Not while catching up: their trades may not have been read yet.
  if (!resume.catchingUp) expireRestoredFees(core, startedX);
  // A correction sets the size as of the positions' own instant: fills stamped before it are in the
  // exchange's figure (folded in before the correction), later ones add on top. Our clock would
  // misplace it by the skew, counting fills twice (behind) or losing them (ahead).
  const asOfMs = read.asOfMs ?? now + offsetMs;
  // A drift's age is elapsed time, on the clock that does not step: a wall-clock jump forward must
  // not make a fill still settling look old enough to correct. A fill's age is taken against the
  // read's own instant (both on the exchange's clock): the same figures may be a newer fill's.
  const check = checkPositions(positions.absoluteSizes(), read.positions, memory.priorDrifts, {
    nowMs: monotonicNow(clock),
    settleMs: options.reconcileDriftSettleMs,
    tokens: new Set(tokens.ids()),
    fills: { asOfMs, lastFillMs: (t) => core.inventory.lastFillMs(t) },
  });
  memory.priorDrifts = check.drifts;
  // A drift on a market not known settled may be a silent resolution's redemption: its record says,
  // and the drift is corrected only once a read made for it has answered "not settled".
  const held = memory.driftReads.held(core, check.drifts);
  const before = grossMark(core);
  const redeemed: PositionDrift[] = [];
  const corrected: PositionDrift[] = [];
  for (const c of check.corrections) {
    if (held.has(c.tokenId)) continue;
    if (positions.settled(c.tokenId)) {
      // A settled market's shares leave by redemption, not by a fill of ours (followRedemption).
      positions.followRedemption(c.tokenId, c.remoteMicro);
      redeemed.push(c);
      continue;
    }
    core.inventory.correct(
      c.tokenId,
      c.remoteMicro - positions.baseline(c.tokenId),
      asOfMs,
      positions.markOf(c.tokenId),
    );
    positions.refresh(c.tokenId);
    corrected.push(c);
  }
  // A correction (or a redemption followed) ends the token's run: the token agrees from here on, so
  // a drift at the next check (a fresh fill settling) is a new run, not the corrected one going on.
  const ended = new Set([...corrected, ...redeemed].map((d) => d.tokenId));
  if (ended.size > 0) memory.priorDrifts = check.drifts.filter((d) => !ended.has(d.tokenId));
  if (redeemed.length > 0) {
    core.log.info(
      { redeemed: redeemed.map(driftFields) },
      "settled market's shares redeemed: the baseline follows the exchange's holding",
    );
  }
  if (corrected.length > 0) {
    // The corrected tokens and those whose inventory limits moved with them.
    requoteExposed(
      core,
      corrected.map((c) => c.tokenId),
      before,
    );
    core.log.warn({ corrections: corrected.map(driftFields) }, "positions corrected to the exchange's");
  }
  // Orders that never reached the exchange go after the grace an unknown placement gets (elapsed
  // time since they last changed, where the store has a monotonic clock: see OrderStore.prune).
  // An earlier run's order adopted and ended since is remembered before the prune forgets it: the
  // stop's count of what may rest takes the engine's word for it, not the journal's (StopCount.held).
  core.restored.held(core.store);
  core.store.prune(now - options.pruneAfterMs, now - options.unknownGraceMs, now);
  // Every later backfill pages trades back to at least this instant, so every fill stamped before it
  // has been applied: inventory can fold those into its totals and forget them (inventory.ts).
  // A history served oldest first being caught up has its unread trades at or after its reach.
  const floor = Math.max(sessionStartMs, startedX - options.tradeLookbackMs);
  core.inventory.compact(Math.min(floor, resume.reachMs ?? floor));
  memory.lastOkAtMs = startedX;
  memory.lastOkMonoMs = startedMono;
  memory.tradesReadAtMs = undefined;
  const summary: ReconcileSummary = {
    reason,
    atMs: now,
    tookMs: now - started,
    updates: report.updates.length,
    orphans: report.orphans.length,
    adopted: report.adopted,
    pending: report.pending,
    inDoubt: report.inDoubt,
    unread: report.unread,
    backfilled: report.backfill.applied.length,
    tradePagesCapped: report.tradesCapped !== undefined,
    searchFailures: report.searchFailures.length,
    searchStuck: memory.failing.stuck,
    lookupStuck: memory.lookupsFailing.stuck,
    drifts: check.drifts,
    corrections: corrected,
  };
  const changed =
    summary.updates + summary.orphans + summary.adopted + summary.backfilled + check.drifts.length;
  const fields = {
    ...summary,
    drifts: check.drifts.map(driftFields),
    corrections: corrected.map(driftFields),
    ...(redeemed.length === 0 ? {} : { redeemed: redeemed.map(driftFields) }),
  };
  if (changed > 0) core.log.info(fields, "reconcile");
  else core.log.debug(fields, "reconcile");
  return summary;
}

/**
 * The exchange's clock minus ours, at most, from one read: its X-Server-Time (`asOfMs`, stamped when
 * the answer was emitted) minus our clock once the answer is in (`answeredAtMs`, later than the
 * emission), so the network delay only makes it smaller. Undefined without a server time.
 * @example clockOffsetSample(1_000_050, 1_000_100) // -50: the exchange is at most 50 ms behind us
 */
export function clockOffsetSample(asOfMs: number | undefined, answeredAtMs: number): number | undefined {
  return asOfMs === undefined || !Number.isFinite(asOfMs) ? undefined : asOfMs - answeredAtMs;
}

/**
 * How long the fee of a restored fill (an earlier run's, journaled without its fee) is waited for,
 * from the fill's time: settlement takes seconds (the mock's settlementDelayMs is 2 s). The start-up
 * reconcile pages back to every such fill whatever its age, once; later ones only to those younger
 * than this, so a fee that never resolves does not make every reconcile page far back for ever.
 */
export const RESTORED_FEE_WAIT_MS = 10 * 60_000;

/** After a reconcile: stops waiting for the fees of restored fills older than RESTORED_FEE_WAIT_MS. */
function expireRestoredFees(core: EngineCore, started: number): void {
  const given = core.restored.expire(started - RESTORED_FEE_WAIT_MS);
  if (given.length === 0) return;
  core.log.warn(
    { fills: given.map((f) => ({ tradeId: f.tradeId, orderId: f.orderId, tokenId: f.tokenId })) },
    "no fee found for fills of an earlier run: their fee is not counted",
  );
}

/** `source` with the orders' fills read through `from` (a wrapper that does not pass them on). */
function withOrderFills(source: ReconcileSource, from: ReconcileSource): ReconcileSource {
  return source === from ? source : { ...source, ...orderFillsOf(from) };
}

function driftFields(d: PositionDrift): Record<string, string> {
  return {
    tokenId: d.tokenId,
    local: d.localMicro.toString(),
    remote: d.remoteMicro.toString(),
    drift: d.driftMicro.toString(),
  };
}
