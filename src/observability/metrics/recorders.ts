import type { Fill } from "../../core/trading.js";
import type { EngineEvent, ReconcileReason, ReconcileSummary } from "../../engine/engine-events.js";
import type { OrderQueueMetrics } from "../../execution/order-queue-types.js";
import type { RiskDecision } from "../../risk/decision.js";
import type { BookFamilies } from "./families-book.js";
import type { OrderFamilies } from "./families-orders.js";
import type { TradingFamilies } from "./families-trading.js";
import type { FillRole } from "./fill-roles.js";
import { haltStatus } from "./halt-reasons.js";
import { horizonLabel, type MarkoutTracker } from "./markout.js";
import { fromMicro, type MetricsContext } from "./sources.js";

/** Everything the recorders write to. */
export interface Families {
  readonly book: BookFamilies;
  readonly orders: OrderFamilies;
  readonly trading: TradingFamilies;
}

/** How the engine learnt of a fill: the user stream, or a reconcile's backfill from REST trades. */
export type FillSource = Extract<EngineEvent, { type: "fill" }>["source"];

/** Options of one fill observation. */
export interface FillOptions {
  /** Default: attributed from the placements seen (see FillRoles). */
  readonly role?: FillRole;
  /** Default "stream": the fill is timed from its receipt. A "backfill" is timed from its own tsMs. */
  readonly source?: FillSource;
}

/** What recordFill keeps from one fill to the next. */
export interface FillState {
  readonly markouts: MarkoutTracker;
  /** What mm_fill_last_timestamp_seconds shows, ms (kept here: prom-client reads gauges asynchronously). */
  lastFillMs: number;
}

/**
 * When a fill happened, on our clock. A stream fill: when it arrived, since its tsMs is the
 * exchange's clock and a skew between the two would eat much of a 1 s horizon. A backfill arrives a
 * reconcile period, or a whole disconnection, late: its tsMs, capped at now (an exchange clock ahead
 * of ours must not date a fill in the future); receipt when tsMs is unreadable.
 * @example
 * fillTimeMs({ ...fill, tsMs: 1_000 }, "backfill", 31_000); // 1_000
 * fillTimeMs({ ...fill, tsMs: 1_000 }, "stream", 1_400); // 1_400
 */
export function fillTimeMs(fill: Fill, source: FillSource, nowMs: number): number {
  if (source === "stream" || !Number.isFinite(fill.tsMs)) return nowMs;
  return Math.min(nowMs, fill.tsMs);
}

/**
 * Counts one fill of ours: fills, shares and notional by market and role, the last-fill time, and
 * starts its markouts. Fills come as the engine applied them (its `fill` events, duplicates already
 * dropped there); positions and PnL are read from the engine's accounts at scrape time. Its fee is
 * counted when the engine books it (recordFee), not here: user_fill carries none.
 * The last-fill time only moves forward: a backfilled fill older than the last one seen leaves it,
 * and a newer one sets it to when it happened, not to when the reconcile found it.
 */
export function recordFill(
  ctx: MetricsContext,
  f: Families,
  state: FillState,
  fill: Fill,
  attrs: { readonly role: FillRole; readonly source: FillSource },
): void {
  const { role } = attrs;
  const market = ctx.labels.ofToken(fill.tokenId).market;
  const t = f.trading;
  const notionalMicro = (BigInt(fill.priceMicro) * fill.sizeMicro) / 1_000_000n;
  t.fills.inc({ market, side: fill.side, role });
  t.volume.inc({ market, role }, fromMicro(fill.sizeMicro));
  t.notional.inc({ market, role }, fromMicro(notionalMicro));
  const atMs = fillTimeMs(fill, attrs.source, ctx.clock.now());
  state.lastFillMs = Math.max(state.lastFillMs, atMs);
  t.lastFill.set(state.lastFillMs / 1_000);
  state.markouts.record(fill, atMs);
}

/** Counts `pico` pico-USDC of fee the engine booked for a fill of `role` (see BookedFees). */
export function recordFee(ctx: MetricsContext, f: Families, fill: Fill, role: FillRole, pico: bigint): void {
  f.trading.fees.inc({ market: ctx.labels.ofToken(fill.tokenId).market, role }, Number(pico) / 1e12);
}

/**
 * Counts a risk decision; a wallet- or market-wide cancel is also a halt, a market's labelled with
 * the status that gated it (haltStatus).
 */
export function recordDecision(
  f: Families,
  d: Pick<RiskDecision, "reason" | "action" | "scope" | "detail">,
): void {
  f.trading.decisions.inc({ reason: d.reason, action: d.action, scope: d.scope });
  if (d.action === "cancel" && (d.scope === "wallet" || d.scope === "market")) {
    const status = haltStatus(d);
    f.trading.halts.inc({ reason: d.reason, scope: d.scope, ...(status === undefined ? {} : { status }) });
  }
}

/** Records one successful reconcile (the engine itself corrects its accounts for persistent drifts). */
export function recordReconcile(f: Families, s: ReconcileSummary): void {
  const t = f.trading;
  t.reconcileRuns.inc({ reason: s.reason, result: "ok" });
  t.reconcileDuration.observe(Math.max(0, s.tookMs) / 1_000);
  t.orphans.inc(s.orphans);
  t.ghosts.inc(s.updates);
  t.backfilled.inc(s.backfilled);
  if (s.tradePagesCapped === true) t.tradePagesCapped.inc();
  t.searchFailures.inc(s.searchFailures ?? 0);
  t.searchStuck.set(s.searchStuck ?? 0);
  t.lookupStuck.set(s.lookupStuck ?? 0);
  t.unresolved.set(s.pending + (s.inDoubt ?? 0));
  t.drifts.set(s.drifts.length);
  // Per token, so that fills settling on different tokens at every check add up to no run.
  t.driftRuns.clear();
  for (const d of s.drifts) t.driftRuns.set(d.tokenId, Math.max(0, d.runMs) / 1_000);
  t.driftCorrected.inc(s.corrections.length);
  t.lastReconcile.set(s.atMs / 1_000);
}

/** Records a failed reconcile. */
export function recordReconcileFailed(f: Families, reason: ReconcileReason): void {
  f.trading.reconcileRuns.inc({ reason, result: "failed" });
}

/** The order queue's metric hooks (OrderQueueOptions.metrics / EngineDeps.queueMetrics). */
export function queueHooks(f: Families): OrderQueueMetrics {
  const o = f.orders;
  return {
    depth(d) {
      o.queueDepth.set({ lane: "cancel_all" }, d.cancelAll);
      o.queueDepth.set({ lane: "cancel" }, d.cancel);
      o.queueDepth.set({ lane: "place" }, d.place);
      o.queueDepth.set({ lane: "awaiting_order_id" }, d.awaitingOrderId);
      o.queueDepth.set({ lane: "in_flight" }, d.inFlight);
    },
    waited: (op, ms) => o.queueWait.observe({ op }, Math.max(0, ms) / 1_000),
    sent: (op) => o.queueSent.inc({ op }),
    rateLimited: (op) => o.rateLimited.inc({ op }),
    shed: () => o.shed.inc(),
    superseded: () => o.superseded.inc(),
    substituted: (_marketId, cancels) => o.substitutions.inc(cancels),
    foreignUse: (op, tokens) => o.foreign.inc({ op }, Math.max(0, tokens)),
  };
}

/** Records one markout sample or a missing one. */
export function markoutSink(ctx: MetricsContext, f: Families) {
  return {
    onSample: (s: { fill: { tokenId: string }; horizonMs: number; markoutMicro: number }) =>
      f.trading.markout.observe(
        { market: ctx.labels.ofToken(s.fill.tokenId).market, horizon: horizonLabel(s.horizonMs) },
        s.markoutMicro / 1_000_000,
      ),
    onMissing: (_fill: unknown, horizonMs: number) =>
      f.trading.markoutMissing.inc({ horizon: horizonLabel(horizonMs) }),
  };
}
