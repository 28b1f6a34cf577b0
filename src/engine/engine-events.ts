import type { Fill } from "../core/trading.js";
import type { SearchAnswer } from "../execution/history-search.js";
import type { CancelReason, PlaceIntent } from "../execution/intents.js";
import type { FeeAmount } from "../execution/inventory-math.js";
import type { CancelAllOutcome, CancelOutcome, PlaceDropReason } from "../execution/order-queue-types.js";
import type { PositionDrift } from "../execution/reconcile-positions.js";
import type { RiskDecision } from "../risk/decision.js";

/** What triggered a REST reconcile. */
export type ReconcileReason =
  | "startup"
  | "periodic"
  | "reconnect"
  | "ambiguous"
  | "unresolved"
  | "order_ended"
  | "manual";

/** Summary of one REST reconcile, for metrics and logs. */
export interface ReconcileSummary {
  readonly reason: ReconcileReason;
  readonly atMs: number;
  readonly tookMs: number;
  /** Local orders whose state the exchange's view changed. */
  readonly updates: number;
  /** Orphans found (open on the exchange, not ours): cancelled, unless adopted. */
  readonly orphans: number;
  readonly adopted: number;
  /** Unknown orders still unresolved. */
  readonly pending: number;
  /**
   * Orders with an orderId whose state the run could not settle (their lookup failed, or a cancel
   * still in doubt), followed up like `pending`. Absent in summaries made before it existed: 0.
   */
  readonly inDoubt?: number;
  /**
   * Of `pending` and `inDoubt`, those left so because their read (history search, lookup) failed.
   * Absent in summaries made before it existed: 0.
   */
  readonly unread?: number;
  /** Fills that were missing and were backfilled from /api/me/trades. */
  readonly backfilled: number;
  /**
   * The trade paging stopped at its page bound before its cut-off: older fills were not backfilled
   * (mm_reconcile_trade_pages_capped_total). Absent in summaries made before it existed: false.
   */
  readonly tradePagesCapped?: boolean;
  /**
   * Order-history searches (one per send cluster) that failed in this run
   * (mm_reconcile_history_search_failures_total). Absent in summaries made before it existed: 0.
   */
  readonly searchFailures?: number;
  /**
   * Unknown placements whose history search has been failing in a row for STUCK_SEARCH_MS or more:
   * their levels wait, unquoted, until it answers (mm_reconcile_history_search_stuck_orders).
   * Absent in summaries made before it existed: 0.
   */
  readonly searchStuck?: number;
  /**
   * Orders absent from the open list whose lookup (GET /api/orders/{id}) has been failing in a row
   * for STUCK_SEARCH_MS or more: held live, in doubt, until it answers
   * (mm_reconcile_lookup_stuck_orders). Absent in summaries made before it existed: 0.
   */
  readonly lookupStuck?: number;
  /** Tokens whose position disagrees with the exchange's (baseline included). */
  readonly drifts: readonly PositionDrift[];
  /**
   * Drifts seen identically in consecutive checks, first seen at least reconcileDriftSettleMs ago,
   * and corrected in inventory.
   */
  readonly corrections: readonly PositionDrift[];
}

/**
 * Everything the engine reports to its listener (metrics, journal, tests). One union so that a
 * listener is a single `switch`; every event carries the clock time it happened at.
 */
export type EngineEvent =
  /** A quoting step turned desired quotes into intents for one token. */
  | {
      readonly type: "quote";
      readonly atMs: number;
      readonly tokenId: string;
      readonly desired: number;
      readonly places: number;
      readonly cancels: number;
    }
  /** A signed placement is being written to the exchange (tick-to-order ends here). */
  | {
      readonly type: "place_sent";
      readonly atMs: number;
      readonly tokenId: string;
      readonly clientOrderId: string;
      /** What is being placed (the journal's intent record); absent for an order the store lost. */
      readonly order?: {
        readonly marketId: string;
        readonly side: "buy" | "sell";
        readonly level: number;
        readonly priceMicro: number;
        readonly sizeMicro: bigint;
      };
    }
  /** A placement's answer. */
  | {
      readonly type: "place_outcome";
      readonly atMs: number;
      readonly intent: PlaceIntent;
      readonly outcome: "accepted" | "rejected" | "ambiguous";
      readonly code: string | undefined;
      readonly latencyMs: number;
      /** The exchange's id of an accepted placement. */
      readonly orderId?: string;
    }
  /** A queued placement that was never sent. */
  | {
      readonly type: "place_dropped";
      readonly atMs: number;
      readonly intent: PlaceIntent;
      readonly reason: PlaceDropReason;
    }
  /**
   * The engine asked for a cancel (`order`: one order, a queued placement's drop included) or a
   * cancel-all (`market`, `wallet`), for `reason`; reported as it is handed to the queue.
   */
  | {
      readonly type: "cancel_requested";
      readonly atMs: number;
      readonly reason: CancelReason;
      readonly scope: "order" | "market" | "wallet";
      readonly marketId: string | undefined;
      /** Undefined for a cancel-all. */
      readonly clientOrderId: string | undefined;
    }
  | {
      readonly type: "cancel_outcome";
      readonly atMs: number;
      readonly clientOrderId: string;
      readonly outcome: CancelOutcome["kind"];
      /** Why it was asked for (the intent's reason). */
      readonly reason: CancelReason;
    }
  | {
      readonly type: "cancel_all_outcome";
      readonly atMs: number;
      readonly marketId: string | undefined;
      readonly outcome: CancelAllOutcome["kind"];
      readonly reason: CancelReason;
    }
  /** A fill of ours was applied (duplicates are not reported). */
  | {
      readonly type: "fill";
      readonly atMs: number;
      readonly fill: Fill;
      readonly source: "stream" | "backfill";
      /** Position in the token after the fill, relative to the baseline. */
      readonly positionMicro: bigint;
      readonly pnlMicro: bigint;
    }
  /**
   * A fill on a token this engine does not trade, applied to nothing here, for the journal to book
   * under its token: one no run journaled of an order an earlier run left, found by the start-up
   * reconcile's search for fills made while mm was down (with `fee` when the trade record had it),
   * or a user_fill of the wallet on such a token (no fee; the journal writes each fill once).
   */
  | {
      readonly type: "restored_fill";
      readonly atMs: number;
      readonly fill: Fill;
      readonly fee: FeeAmount | undefined;
    }
  /** A fill's fee became known (REST trades after settlement), or changed. */
  | { readonly type: "fee"; readonly atMs: number; readonly fill: Fill; readonly fee: FeeAmount }
  /**
   * The drawdown kill switch tripped (`trip`: the peak, the PnL and the drawdown that tripped it) or
   * the operator re-armed it (`rearm`: the peak restarts at `pnlMicro`, drawdown 0), with the limit:
   * the journal keeps both, so that a restart does not re-arm a trip (restore.killSwitch).
   */
  | {
      readonly type: "kill_switch";
      readonly atMs: number;
      readonly action: "trip" | "rearm";
      readonly peakMicro: bigint;
      readonly pnlMicro: bigint;
      readonly drawdownMicro: bigint;
      readonly limitMicro: bigint;
    }
  /**
   * A market just settled (resolved or voided: a push, or a record read taken as one), once: its
   * tokens' positions and marks stay, but their books need no watching any more (the exchange sends
   * a settled market's book no more): the adapters retire them (BookTracker.retire) and unsubscribe.
   * Not told for a market listed settled at start: its books are never watched (watchedBookTokens).
   */
  | {
      readonly type: "market_settled";
      readonly atMs: number;
      readonly marketId: string;
      readonly tokenIds: readonly string[];
    }
  /**
   * A market's settlement as the engine took it (RESOLVED or VOIDED: a push, or a record read taken
   * as one): at its first settlement, with the payouts when known then, and again when its payouts
   * become known later (a repeat says nothing). The journal keeps it, so that `mm paper` can settle
   * the market on its fresh mock again when a later run uses the same journal (paper-settlements.ts).
   * Not told for a market listed settled at start: the exchange that listed it so keeps it so.
   */
  | {
      readonly type: "market_settlement";
      readonly atMs: number;
      readonly marketId: string;
      readonly status: string;
      /** Outcome index → payout numerator (decimal strings), as pushed or read; undefined if unknown. */
      readonly payouts: Readonly<Record<string, string>> | undefined;
    }
  /**
   * The armed kill switch's drawdown rose by 1% of the limit since the last such event: the journal
   * writes it at once (a PnL snapshot), so that a crash before the periodic one does not renew the
   * limit for the next run (restore.carriedDrawdown).
   */
  | {
      readonly type: "drawdown";
      readonly atMs: number;
      readonly drawdownMicro: bigint;
      readonly limitMicro: bigint;
    }
  /**
   * A settled market's record was first read for its payouts (ClosedMarketWatch): its day of reads
   * (PAYOUT_READS_GIVE_UP_MS) runs from `atMs`. The journal keeps it, and the next run's reads go
   * on from it (restore.payoutReadsSince), so restarts do not start the day again. Not told for a
   * market whose day a restore already began.
   */
  | { readonly type: "payout_reads_started"; readonly atMs: number; readonly marketId: string }
  /**
   * A traded market took a new slug: the open-market sweep's list showed it by its id under `slug`
   * (SweepSlugs), its record read by it from now on. The journal keeps it, so that the next start
   * finds the market when engine.markets still names `previous` (a 404 from then on), and a list
   * showing a slug the market has left is not taken back on its word alone.
   */
  | {
      readonly type: "market_slug";
      readonly atMs: number;
      readonly marketId: string;
      readonly slug: string;
      readonly previous: string | undefined;
    }
  /**
   * The count of one watch's status reads (a market's record, or the market list) that keep failing
   * changed (ReadFailures: READ_FAILURES_BEFORE_WARN failures in a row, until one answers):
   * mm_market_status_reads_failing{watch}.
   */
  | {
      readonly type: "market_reads_failing";
      readonly atMs: number;
      readonly watch: "closed" | "open";
      readonly failing: number;
    }
  /** A risk decision (every one, also those the log does not repeat). */
  | { readonly type: "decision"; readonly atMs: number; readonly decision: RiskDecision }
  /** A strategy call gave no quote (strategy-health.ts): mm_strategy_failures_total. */
  | {
      readonly type: "strategy_failed";
      readonly atMs: number;
      readonly tokenId: string;
      readonly strategy: string;
      readonly reason: "threw" | "output_invalid";
    }
  /** A strategy call took longer than engine.strategySlowMs: mm_strategy_slow_calls_total. */
  | {
      readonly type: "strategy_slow";
      readonly atMs: number;
      readonly tokenId: string;
      readonly strategy: string;
      readonly tookMs: number;
    }
  /** A size order.maxSize drops outright on a token, told once per token and size (OversizeNotice). */
  | {
      readonly type: "oversize_dropped";
      readonly atMs: number;
      readonly tokenId: string;
      readonly marketId: string;
      readonly size: string;
      readonly maxSize: string;
    }
  | { readonly type: "reconcile"; readonly atMs: number; readonly summary: ReconcileSummary }
  /**
   * The start-up reconcile looked up, by clientOrderId, the placements earlier runs sent without a
   * definite answer (EngineRestore.unanswered), and these got one: found (`orderId`, the exchange's
   * `status` and market), or not found once the unknown-order grace is over by a search that read its
   * whole window (`orderId` undefined: never placed). All in one event, so the journal writes them in
   * one transaction: a run may leave thousands, all answered before quoting starts.
   */
  | {
      readonly type: "placements_resolved";
      readonly atMs: number;
      readonly placements: readonly {
        readonly clientOrderId: string;
        readonly orderId: string | undefined;
        readonly marketId: string | undefined;
        readonly status: string | undefined;
      }[];
    }
  /**
   * A running reconcile answered placements of this run that were answered ambiguously
   * (ReconcileReport.answered: found on the open list, or by its history search), or a user_fill
   * naming one did (its orderId; status
   * FILLED when it completed the order, else undefined): found (`orderId`, status, market), never placed (a
   * complete search past the grace: `orderId` undefined), or given up (`givenUp`: not found by
   * MAX_UNSURE_SEARCHES cut-short searches, never proven unplaced). For the journal, which otherwise
   * kept them unanswered for the whole run and had the next start search them all.
   */
  | {
      readonly type: "placements_answered";
      readonly atMs: number;
      readonly placements: readonly SearchAnswer[];
    }
  | {
      readonly type: "reconcile_failed";
      readonly atMs: number;
      readonly reason: ReconcileReason;
      readonly error: unknown;
    }
  | {
      readonly type: "started";
      readonly atMs: number;
      readonly adopted: number;
      readonly cancelledAtStart: number;
    }
  | { readonly type: "stopped"; readonly atMs: number; readonly reason: string; readonly openOrders: number };
