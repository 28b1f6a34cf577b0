import { STRATEGY_NAMES } from "../../../strategies/registry.js";
import { CANCEL_REASONS } from "../../execution/intents.js";
import { GATE_REASONS_BY_SCOPE, haltStatusesOf } from "./halt-reasons.js";
import type { MarketLabels } from "./market-labels.js";
import { horizonLabel } from "./markout.js";
import type { Families } from "./recorders.js";

const OPS = ["place", "cancel", "cancel_all"] as const;
const ROLES = ["maker", "taker", "unknown"] as const;
const SIDES = ["buy", "sell"] as const;
const DROP_REASONS = ["superseded", "shed", "cancelled_unsent", "cancel_all", "closed"] as const;
const CANCEL_RESULTS = ["done", "covered", "not_sent", "failed", "ambiguous"] as const;
const CANCEL_ALL_RESULTS = ["done", "failed", "ambiguous"] as const;
const RECONCILE_REASONS = [
  "startup",
  "periodic",
  "reconnect",
  "ambiguous",
  "unresolved",
  "order_ended",
  "manual",
] as const;
const LANES = ["cancel_all", "cancel", "place", "awaiting_order_id", "in_flight"] as const;

/**
 * Creates, at zero, every series whose labels are a closed set, so that a counter exists (and a
 * rate() over it answers 0) before its first event: Prometheus cannot tell "never happened" from
 * "not exported" otherwise, and alerts on increase() would miss the first occurrence.
 */
export function initialSeries(f: Families, horizonsMs: readonly number[], nowMs: number): void {
  const o = f.orders;
  const t = f.trading;
  for (const op of OPS) {
    o.queueSent.inc({ op }, 0);
    o.rateLimited.inc({ op }, 0);
    o.foreign.inc({ op }, 0);
    o.ambiguous.inc({ op }, 0);
    o.queueWait.zero({ op });
  }
  for (const lane of LANES) o.queueDepth.set({ lane }, 0);
  for (const reason of DROP_REASONS) o.dropped.inc({ reason }, 0);
  for (const result of CANCEL_RESULTS) o.cancels.inc({ result }, 0);
  for (const reason of CANCEL_REASONS) o.cancelRequests.inc({ reason }, 0);
  for (const scope of ["market", "wallet"] as const) {
    for (const result of CANCEL_ALL_RESULTS) o.cancelAlls.inc({ scope, result }, 0);
  }
  for (const reason of GATE_REASONS_BY_SCOPE.wallet) t.halts.inc({ reason, scope: "wallet" }, 0);
  for (const reason of GATE_REASONS_BY_SCOPE.market) {
    for (const status of haltStatusesOf(reason)) t.halts.inc({ reason, scope: "market", status }, 0);
  }
  for (const reason of RECONCILE_REASONS) {
    t.reconcileRuns.inc({ reason, result: "ok" }, 0);
    t.reconcileRuns.inc({ reason, result: "failed" }, 0);
  }
  for (const h of horizonsMs) t.markoutMissing.inc({ horizon: horizonLabel(h) }, 0);
  for (const watch of ["closed", "open"] as const) t.statusReadsFailing.set({ watch }, 0);
  // The registered strategies (the only ones a config can name): a first failure shows in increase().
  for (const strategy of STRATEGY_NAMES) {
    for (const reason of ["threw", "output_invalid"] as const)
      t.strategyFailures.inc({ strategy, reason }, 0);
    t.strategySlowCalls.inc({ strategy }, 0);
  }
  // "No fill since start" ages from the start, so a bot that never trades still alerts.
  t.lastFill.set(nowMs / 1_000);
}

/** Zero series of every registered market. */
export function marketSeries(f: Families, labels: MarketLabels, horizonsMs: readonly number[]): void {
  const b = f.book;
  const t = f.trading;
  for (const [, l] of labels.tokens()) {
    b.updates.inc(l, 0);
    b.gaps.inc(l, 0);
  }
  for (const market of labels.marketValues()) {
    f.orders.placed.inc({ market }, 0);
    for (const role of ROLES) {
      for (const side of SIDES) t.fills.inc({ market, side, role }, 0);
      t.volume.inc({ market, role }, 0);
      t.notional.inc({ market, role }, 0);
      t.fees.inc({ market, role }, 0);
    }
    for (const h of horizonsMs) t.markout.zero({ market, horizon: horizonLabel(h) });
  }
}
