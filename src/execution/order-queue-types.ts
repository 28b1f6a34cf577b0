import type { Clock } from "../core/clock.js";
import type { PlaceOrderRequest } from "../core/types.js";
import type { ExchangePort } from "../engine/ports.js";
import type { ExchangeCodeLike } from "../exchange/codes.js";
import type { ExchangeError } from "../exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { RateLimitState } from "../exchange/rate-limit-state.js";
import type { CancelAllIntent, CancelIntent, PlaceIntent } from "./intents.js";
import type { RateBudget } from "./rate-budget.js";

/** The three kinds of request the queue sends. */
export type QueueOp = "place" | "cancel" | "cancel_all";

/**
 * Why a queued placement was never sent (a re-queued one, sent once already, is reported as a `place`
 * with its retryable reject instead; the queue's counters still count the drop):
 * - `superseded`: a newer placement for the same (tokenId, side, level) replaced it;
 * - `shed`: a calm requote the budget could not send soon (see OrderQueueOptions.calmUrgencyTicks);
 * - `cancelled_unsent`: a cancel arrived for it before it left;
 * - `cancel_all`: a cancel-all of its market (or the kill switch) was queued after it;
 * - `closed`: the queue is closing (placements are no longer sent; cancels still are).
 */
/** Slots of the order queue kept for cancels and cancel-alls (OrderQueueOptions.cancelSlots). */
export const DEFAULT_CANCEL_SLOTS = 4;

export type PlaceDropReason = "superseded" | "shed" | "cancelled_unsent" | "cancel_all" | "closed";

/** How a cancel ended. */
export type CancelOutcome =
  /** The exchange answered the single cancel. */
  | { kind: "done"; orderId: string; status: string | undefined }
  /** A cancel-all of its market (or the kill switch) covered it and succeeded. */
  | { kind: "covered"; marketId: string | undefined; cancelled: number }
  /** Nothing to cancel on the exchange: its placement was dropped unsent or definitely rejected. */
  | { kind: "not_sent"; reason: "placement_dropped" | "placement_rejected" }
  /** A definite answer (e.g. not_cancellable, order_not_found), or retryable after the last attempt. */
  | FailedRequest
  /** It may or may not have taken effect: the reconciler finds out. */
  | AmbiguousRequest;

/**
 * A cancel or cancel-all that did not take effect. One request may answer several intents (the
 * duplicates a cancel carries, the market cancel-alls the kill switch's absorbed), each reported:
 * `requestError` is true on exactly one report per request sent and answered so, false on the others
 * and on failures with no request at all (no orderId to cancel, cancel-all turned off before it was
 * sent). The error-rate halt counts only the true ones: its bound is one error per request.
 */
export interface FailedRequest {
  kind: "failed";
  code: ExchangeCodeLike;
  retryable: boolean;
  error: ExchangeError;
  requestError: boolean;
}

/**
 * A cancel or cancel-all answered ambiguously (a timeout, 500, 502, 504): it may or may not have
 * taken effect, and the reconciler finds out. It counts towards the error-rate halt as a failure
 * does (an exchange that cannot confirm its cancels keeps the bot's stale quotes up), so
 * `requestError` marks the one report per request sent and answered so, as on FailedRequest: false
 * on the duplicates it carried, on the cancels a cancel-all covered (the cancel-all's own report, or
 * for a substituted one the first covered cancel's, counts it), and on the cancels of a placement
 * answered ambiguously (no request of their own: the placement's answer counts).
 */
export interface AmbiguousRequest {
  kind: "ambiguous";
  error: ExchangeError;
  requestError: boolean;
}

/** How a cancel-all ended. */
export type CancelAllOutcome =
  | { kind: "done"; cancelled: number; marketId: string | undefined }
  | FailedRequest
  | AmbiguousRequest;

/**
 * What the queue reports for each intent, exactly once per intent: `place_dropped` only for a placement
 * that never left; a `place` carries the answer of its last send. One report answers no intent:
 * `substitution_failed`, a cancel-all the queue itself substituted for a market's single cancels
 * that failed (not ambiguously: its covered cancels are then reported ambiguous, the first one
 * counting the request). It is a request sent, so its failure is counted (requestError) like
 * any other; its `cancels` go back to the cancel lane and are sent singly (see
 * SUBSTITUTION_PAUSE_MS), each reported once as usual.
 */
export type QueueReport =
  | {
      kind: "place";
      intent: PlaceIntent;
      outcome: PlaceOrderOutcome;
      sentAt: number;
      answeredAt: number;
      /**
       * Set on a 429 that the placement would have been sent again after, had it not been withdrawn
       * or shed before that resend, and only on the first such 429 of its quote level since a
       * placement there was answered otherwise: no order failure, so the error-rate halt does not
       * count it (see ForgoneRetries).
       */
      retryForgone?: true;
    }
  | { kind: "place_dropped"; intent: PlaceIntent; reason: PlaceDropReason }
  | { kind: "cancel"; intent: CancelIntent; outcome: CancelOutcome }
  | { kind: "cancel_all"; intent: CancelAllIntent; outcome: CancelAllOutcome }
  | { kind: "substitution_failed"; marketId: string; cancels: number; outcome: FailedRequest };

/** Depth of each lane, for gauges. */
export interface QueueDepth {
  cancelAll: number;
  cancel: number;
  place: number;
  /** Cancels held until their placement's answer gives them an orderId. */
  awaitingOrderId: number;
  inFlight: number;
}

/** Optional metric hooks; every one is called synchronously and must not throw. */
export interface OrderQueueMetrics {
  depth?(depth: QueueDepth): void;
  /** Time an item spent queued before it was sent. */
  waited?(op: QueueOp, ms: number): void;
  sent?(op: QueueOp): void;
  rateLimited?(op: QueueOp, retryAfterMs: number | undefined): void;
  shed?(intent: PlaceIntent): void;
  superseded?(intent: PlaceIntent): void;
  /** A cancel-all replaced `cancels` single cancels of a market. */
  substituted?(marketId: string, cancels: number): void;
  /** Tokens charged to foreign use after the server's headers disagreed with our count. */
  foreignUse?(op: QueueOp, tokens: number): void;
}

/** Running totals (also for metrics). */
export interface QueueStats {
  sent: Record<QueueOp, number>;
  rateLimited: number;
  shed: number;
  superseded: number;
  cancelledUnsent: number;
  substitutions: number;
  requeued: number;
}

export interface OrderQueueOptions {
  clock: Clock;
  port: Pick<ExchangePort, "place" | "cancel" | "cancelAll">;
  /** Builds and signs the request of a placement (the engine's OrderBuilder); called just before sending. */
  sign: (intent: PlaceIntent) => PlaceOrderRequest | Promise<PlaceOrderRequest>;
  /** Its block() caps a 429's hold and warns of an over-long Retry-After (RateBudgetOptions.log). */
  budget: RateBudget;
  /** Receives one report per intent. Called synchronously; must not throw. */
  onReport: (report: QueueReport) => void;
  /** Last X-RateLimit-* state per endpoint (ExchangeHttpClient.rateLimit); enables header sync. */
  rateLimitState?: (endpoint: string) => RateLimitState | undefined;
  /**
   * clientOrderIds of every order of ours that may rest in a market (any non-terminal state), from the
   * order manager. Without it the queue never substitutes a cancel-all for single cancels.
   */
  restingOrders?: (marketId: string) => Iterable<string>;
  /**
   * Whether a placement rejected as retryable (429, 503, circuit open) is still wanted. Without it such
   * a placement is reported, never re-queued.
   */
  stillDesired?: (intent: PlaceIntent) => boolean;
  /**
   * A placement went back into the queue after a retryable reject: the engine marks it queued again,
   * so that what it decides during the wait (a new price, a gate) replaces or withdraws it instead
   * of letting the old request go out when the wait ends.
   */
  onRequeued?: (intent: PlaceIntent) => void;
  /**
   * Requests in flight at most (p-queue concurrency). Default 16 (the HTTP client's socket pool). It must
   * cover the send rate × round trip, or it, not the budget, limits throughput.
   */
  concurrency?: number;
  /**
   * Extra slots only cancels and cancel-alls may use, so that they never wait behind placements
   * in flight (a kill-switch cancel-all behind 16 slow placements waited up to their timeout).
   * Default DEFAULT_CANCEL_SLOTS.
   */
  cancelSlots?: number;
  /** Placements the budget cannot send within this horizon may be shed when calm. Default 1000 ms. */
  shedHorizonMs?: number;
  /** Placements with urgencyTicks at or below this are calm: shed first under a tight budget. Default 2. */
  calmUrgencyTicks?: number;
  /** Attempts per cancel / cancel-all when the answer is retryable (503; a 429 spends none of a single cancel's until the queue closes). Default 3. */
  maxCancelAttempts?: number;
  /** Block used after a 429 without Retry-After. Default 1000 ms. */
  defaultRetryAfterMs?: number;
  /** Whether the exchange offers cancel-all (a 501 turns it off at run time). Default true. */
  cancelAllAvailable?: boolean;
  metrics?: OrderQueueMetrics;
}
