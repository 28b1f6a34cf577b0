import type { Clock } from "../core/clock.js";
import type { PlaceOrderRequest } from "../core/types.js";
import type { ExchangePort } from "../engine/ports.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { RateLimitState } from "../exchange/rate-limit-state.js";
import type { CancelAllResult } from "../exchange/types.js";
import type { PlaceIntent } from "./intents.js";
import type { QueuedCancel, QueuedCancelAll, QueuedPlace } from "./order-queue-lanes.js";
import type { OrderQueueMetrics, QueueOp } from "./order-queue-types.js";
import { type BudgetOp, endpointOf, type RateBudget } from "./rate-budget.js";

/**
 * The reject of a placement whose signing failed: nothing was sent (its token is given back). The
 * engine counts it towards the error-rate halt all the same: a failed order attempt.
 */
export const SIGN_FAILED = "sign_failed";

/** What happened to a dispatched placement. */
export type PlaceSend =
  /** Not sent: between dispatch and send it was superseded or cancelled (its token was returned). */
  | { kind: "withdrawn" }
  | { kind: "answered"; outcome: PlaceOrderOutcome; sentAt: number; answeredAt: number };

/** What happened to a dispatched cancel or cancel-all. */
export type WriteSend<T> = { ok: true; value: T } | { ok: false; error: ExchangeError };

export interface SenderDeps {
  clock: Clock;
  port: Pick<ExchangePort, "place" | "cancel" | "cancelAll">;
  sign: (intent: PlaceIntent) => PlaceOrderRequest | Promise<PlaceOrderRequest>;
  budget: RateBudget;
  rateLimitState: ((endpoint: string) => RateLimitState | undefined) | undefined;
  metrics: OrderQueueMetrics | undefined;
  defaultRetryAfterMs: number;
  /** Counts sends and 429s. */
  onSent: (op: QueueOp) => void;
  onRateLimited: () => void;
}

/**
 * Sends one dispatched item. The token was reserved at dispatch; it is committed at the instant the
 * request leaves (after signing) or released when the item is withdrawn or signing fails. After the
 * answer: X-RateLimit-* headers are fed back to the budget and a 429 blocks the op until Retry-After.
 */
export class QueueSender {
  readonly #d: SenderDeps;
  readonly #lastObserved = new Map<string, number>();

  constructor(deps: SenderDeps) {
    this.#d = deps;
  }

  /** Signs and sends a placement unless `stillWanted()` turns false while it is being signed. */
  async place(item: QueuedPlace, stillWanted: () => boolean): Promise<PlaceSend> {
    const { clock, budget } = this.#d;
    let req: PlaceOrderRequest;
    try {
      req = await this.#d.sign(item.intent);
    } catch (err) {
      budget.release("place", clock.now());
      const error = new ExchangeError({
        code: SIGN_FAILED,
        message: "signing the order failed; nothing was sent",
        outcome: "rejected",
        endpoint: endpointOf("place"),
        cause: err,
      });
      const now = clock.now();
      return {
        kind: "answered",
        outcome: { kind: "rejected", code: error.code, retryable: false, error },
        sentAt: now,
        answeredAt: now,
      };
    }
    if (!stillWanted()) {
      budget.release("place", clock.now());
      return { kind: "withdrawn" };
    }
    const sentAt = this.#commit("place");
    let outcome: PlaceOrderOutcome;
    try {
      outcome = await this.#d.port.place(req);
    } catch (err) {
      // ExchangePort.place promises never to throw; if an adapter does, the request may have left.
      outcome = { kind: "ambiguous", error: asExchangeError(err, "place") };
    }
    if (outcome.kind === "rejected") this.#blockIfLimited("place", outcome.error, sentAt);
    else budget.answered("place");
    this.#sync("place", sentAt);
    return { kind: "answered", outcome, sentAt, answeredAt: clock.now() };
  }

  /** Sends a single cancel. */
  cancel(item: QueuedCancel): Promise<WriteSend<{ orderId: string; status: string | undefined }>> {
    return this.#write("cancel", () => this.#d.port.cancel(item.orderId));
  }

  /** Sends a cancel-all (of one market, or every market for the kill switch). */
  cancelAll(item: QueuedCancelAll): Promise<WriteSend<CancelAllResult>> {
    return this.#write("cancel_all", () => this.#d.port.cancelAll(item.marketId));
  }

  async #write<T>(op: "cancel" | "cancel_all", call: () => Promise<T>): Promise<WriteSend<T>> {
    const sentAt = this.#commit(op);
    try {
      const value = await call();
      this.#d.budget.answered(op);
      this.#sync(op, sentAt);
      return { ok: true, value };
    } catch (err) {
      const error = asExchangeError(err, op);
      this.#blockIfLimited(op, error, sentAt);
      this.#sync(op, sentAt);
      return { ok: false, error };
    }
  }

  #commit(op: QueueOp): number {
    const sentAt = this.#d.clock.now();
    this.#d.budget.commit(op, sentAt);
    this.#d.onSent(op);
    this.#d.metrics?.sent?.(op);
    return sentAt;
  }

  // A 429 holds its op for its Retry-After, at most the budget's cap (RateBudget.block): a longer
  // one (a proxy's, 300 s) held the kill switch's and the stop's cancels for minutes.
  // A usable Retry-After is honoured as sent; a retry answered 429 with none (absent, 0) holds
  // longer each time (RateBudget.rateLimited).
  #blockIfLimited(op: QueueOp, error: ExchangeError, sentAt: number): void {
    const { budget, clock } = this.#d;
    if (!isRateLimited(error)) {
      budget.answered(op); // an answer that is not a 429 ends an over-long Retry-After's episode
      return;
    }
    budget.rateLimited(op, sentAt, clock.now(), error.retryAfterMs, this.#d.defaultRetryAfterMs);
    this.#d.onRateLimited();
    this.#d.metrics?.rateLimited?.(op, error.retryAfterMs);
  }

  /** Feeds the endpoint's latest X-RateLimit-* headers to the budget, once per observation. */
  #sync(op: BudgetOp & QueueOp, sentAt: number): void {
    const endpoint = endpointOf(op);
    const state = this.#d.rateLimitState?.(endpoint);
    if (state === undefined || state.observedAt < sentAt) return;
    if ((this.#lastObserved.get(endpoint) ?? Number.NEGATIVE_INFINITY) >= state.observedAt) return;
    this.#lastObserved.set(endpoint, state.observedAt);
    const charged = this.#d.budget.observe(op, state, sentAt, this.#d.clock.now());
    if (charged > 0) this.#d.metrics?.foreignUse?.(op, charged);
  }
}

/** A 429 (by status or by the spec's `rate_limited` code). */
export function isRateLimited(error: ExchangeError): boolean {
  return error.httpStatus === 429 || error.code === "rate_limited";
}

/** Anything a port threw, as an ExchangeError; a non-ExchangeError is treated as ambiguous (it may have left). */
export function asExchangeError(err: unknown, op: QueueOp): ExchangeError {
  if (err instanceof ExchangeError) return err;
  return new ExchangeError({
    code: "unexpected_error",
    message: err instanceof Error ? err.message : String(err),
    outcome: "ambiguous",
    endpoint: endpointOf(op),
    cause: err,
  });
}
