import type { DesiredQuote } from "../core/trading.js";
import { GATE_REASONS } from "../risk/decision.js";

/**
 * What the order manager asks the order queue to do. The queue decides when (rate budget,
 * priority) and whether (a placement superseded before it is sent is dropped); the order manager
 * decides what.
 */
export type Intent = PlaceIntent | CancelIntent | CancelAllIntent;

/**
 * Why the engine asks for a cancel (or a cancel-all), one closed set: the metrics label of
 * `mm_order_cancel_requests_total`, the `reason` of the journal's cancel rows, the log's `reason`.
 * - requote: the level's desired price or size moved past the tolerance (cancel-replace);
 * - duplicate: a second open order on a level whose first stays;
 * - not_desired: the strategy no longer quotes the level (one-sided book, a band skipped…);
 * - superseded: a queued placement replaced before it was sent (no request is made);
 * - expiring: renewed before its on-chain expiry (order-renewal.ts);
 * - risk_limit: a risk limit dropped the level's quote (size, notional, inventory caps, price band…);
 * - the risk gates (decision.ts GATE_REASONS, spread in): kill_switch, platform_frozen, error_rate_halt,
 *   market_not_open (closed, paused, resolved, past its close), market_unquotable (its fee rate
 *   above the signable cap), book_crossed, book_resyncing
 *   (a gap, a resync, no snapshot yet), book_stale;
 * - quoting_disabled (before start, while stopping), no_strategy (a token with no strategy);
 * - startup: the start-up cancel-all of what an earlier run left (policy `cancel`);
 * - shutdown: the stop's cancels and cancel-alls (the stop's own words are logged beside);
 * - orphan: an order open on the exchange that is not ours to keep (the reconcile's strays).
 */
export const CANCEL_REASONS = [
  "requote",
  "duplicate",
  "not_desired",
  "superseded",
  "expiring",
  "risk_limit",
  // A gate's cancels carry the gate's own name: the risk guard's list, so a new gate is one here too.
  ...GATE_REASONS,
  "quoting_disabled",
  "no_strategy",
  "startup",
  "shutdown",
  "orphan",
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export interface PlaceIntent {
  readonly kind: "place";
  readonly tokenId: string;
  readonly marketId: string;
  readonly clientOrderId: string;
  readonly quote: DesiredQuote;
  /**
   * How far the live quote (an open order) is from the desired one, in ticks (a missing live quote,
   * a queued unsent placement included, counts as the largest distance): the queue sends the most
   * urgent requotes first and sheds the calm ones.
   */
  readonly urgencyTicks: number;
}

export interface CancelIntent {
  readonly kind: "cancel";
  readonly tokenId: string;
  readonly marketId: string;
  readonly clientOrderId: string;
  /** The exchange id; undefined while the placement is still in flight. */
  readonly orderId: string | undefined;
  readonly reason: CancelReason;
  /**
   * The quote level of the order, on a quoting step's cancel: once the cancel is done, the placement
   * queued for that level replaces nothing resting any more, and the queue ranks it as a missing quote.
   */
  readonly level?: { readonly side: DesiredQuote["side"]; readonly level: number };
}

export interface CancelAllIntent {
  readonly kind: "cancel_all";
  /** Undefined = every market of the wallet (the kill switch). */
  readonly marketId: string | undefined;
  readonly reason: CancelReason;
}
