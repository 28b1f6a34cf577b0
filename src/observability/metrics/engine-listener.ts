import type { EngineEvent } from "../../engine/engine-events.js";
import type { LabelCap } from "./label-cap.js";
import type { Families, FillOptions } from "./recorders.js";
import type { MetricsContext } from "./sources.js";
import type { TickToOrder } from "./tick-to-order.js";

/** What the engine listener delegates to (the Metrics object). */
export interface EngineEventSink {
  readonly ctx: MetricsContext;
  readonly families: Families;
  readonly tickToOrder: TickToOrder;
  /** Caps the `code` label of rejections. */
  readonly codes: LabelCap;
  onFill(fill: Extract<EngineEvent, { type: "fill" }>["fill"], opts?: FillOptions): void;
  onFee(
    fill: Extract<EngineEvent, { type: "fee" }>["fill"],
    fee: Extract<EngineEvent, { type: "fee" }>["fee"],
  ): void;
  onRiskDecision(d: Extract<EngineEvent, { type: "decision" }>["decision"]): void;
  onReconcile(s: Extract<EngineEvent, { type: "reconcile" }>["summary"]): void;
  onReconcileFailed(reason: Extract<EngineEvent, { type: "reconcile_failed" }>["reason"]): void;
}

/**
 * Turns one engine event into metrics (EngineDeps.listener). Synchronous and cheap: counters and a
 * few map updates; never throws for an event it does not know.
 */
export function applyEngineEvent(sink: EngineEventSink, e: EngineEvent): void {
  const o = sink.families.orders;
  const { labels } = sink.ctx;
  switch (e.type) {
    case "quote":
      if (e.places > 0) sink.tickToOrder.quote(e.tokenId, e.atMs);
      return;
    case "place_sent": {
      const s = sink.tickToOrder.sent(e.tokenId, e.atMs);
      if (s !== undefined) o.tickToOrder.observe(s);
      return;
    }
    case "place_outcome":
      if (e.outcome === "accepted") o.placed.inc({ market: labels.ofMarket(e.intent.marketId) });
      else if (e.outcome === "rejected") o.rejected.inc({ code: sink.codes.of(e.code ?? "unknown") });
      else o.ambiguous.inc({ op: "place" });
      return;
    case "place_dropped":
      o.dropped.inc({ reason: e.reason });
      return;
    case "cancel_requested":
      o.cancelRequests.inc({ reason: e.reason });
      return;
    case "cancel_outcome":
      o.cancels.inc({ result: e.outcome });
      if (e.outcome === "ambiguous") o.ambiguous.inc({ op: "cancel" });
      return;
    case "cancel_all_outcome":
      o.cancelAlls.inc({ scope: e.marketId === undefined ? "wallet" : "market", result: e.outcome });
      if (e.outcome === "ambiguous") o.ambiguous.inc({ op: "cancel_all" });
      return;
    case "fill":
      // The source decides what the fill is timed from (a backfill arrives late: see recordFill).
      sink.onFill(e.fill, { source: e.source });
      return;
    case "fee":
      sink.onFee(e.fill, e.fee);
      return;
    case "decision":
      sink.onRiskDecision(e.decision);
      return;
    case "strategy_failed":
      sink.families.trading.strategyFailures.inc({ strategy: e.strategy, reason: e.reason });
      return;
    case "strategy_slow":
      sink.families.trading.strategySlowCalls.inc({ strategy: e.strategy });
      return;
    case "oversize_dropped":
      sink.families.trading.oversizeSizes.inc({ market: labels.ofMarket(e.marketId) });
      return;
    case "reconcile":
      sink.onReconcile(e.summary);
      return;
    case "reconcile_failed":
      sink.onReconcileFailed(e.reason);
      return;
    case "market_reads_failing":
      sink.families.trading.statusReadsFailing.set({ watch: e.watch }, e.failing);
      return;
    default:
      return;
  }
}
