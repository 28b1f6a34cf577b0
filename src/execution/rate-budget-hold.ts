import { LONGEST_RATE_WINDOW_MS } from "../exchange/rate-limit-streak.js";
import type { BudgetOp } from "./rate-budget.js";

// The 429 rule the budget shares with the HTTP client's retries (one implementation, beside the client).
export { ABSENT_RETRY_AFTER_MS, MIN_BLOCK_MS, RateLimitStreak } from "../exchange/rate-limit-streak.js";

/**
 * The longest one Retry-After holds an op of the rate budget (RateBudget.block applies it to every
 * caller: the order queue's writes, the gated reads, any later one). The spec's Retry-After is the delta seconds until
 * the tightest bucket refills (X-RateLimit-Reset), so it never exceeds that bucket's window, and no
 * window in the rate-limit table is longer than 60 s; it is also the HTTP client's maxRetryAfterMs.
 * A longer one is not the rate limit the spec describes (a proxy's or a misconfigured server's
 * figure): held for the whole of it, every reconcile — fill backfill, ghost resolution — would stop.
 * Held this long, the next read asks again; an exchange still limiting answers another 429.
 */
export const GATE_MAX_BLOCK_MS = LONGEST_RATE_WINDOW_MS;

/** Where an over-long Retry-After is reported (a pino Logger fits). */
export interface RetryAfterLog {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/**
 * How long the Retry-After of an op's 429 holds the op: as asked, capped at `maxBlockMs` (one per op
 * inside RateBudget, which is where every hold goes through). A cut
 * one is reported at warn once per episode — the episode lasts until an answer that is not an
 * over-long 429 — so a 5-minute ban answered every minute makes one line, not five.
 * @example new OverLongRetryAfter("order_reads", 60_000, logger).heldMs(300_000) // 60_000, warned
 */
export class OverLongRetryAfter {
  readonly #op: BudgetOp;
  readonly #maxBlockMs: number;
  readonly #log: RetryAfterLog | undefined;
  #warned = false;

  constructor(op: BudgetOp, maxBlockMs = GATE_MAX_BLOCK_MS, log?: RetryAfterLog) {
    this.#op = op;
    this.#maxBlockMs = maxBlockMs;
    this.#log = log;
  }

  /** The hold for one answer: `askedMs` is its Retry-After when it was a 429, undefined otherwise. */
  heldMs(askedMs: number | undefined): number | undefined {
    if (askedMs === undefined || askedMs <= this.#maxBlockMs) {
      this.#warned = false;
      return askedMs;
    }
    if (!this.#warned) {
      this.#warned = true;
      this.#log?.warn(
        { op: this.#op, retryAfterMs: askedMs, heldMs: this.#maxBlockMs },
        "rate budget: the exchange's Retry-After is longer than any rate window; holding the requests for the cap only, then asking again",
      );
    }
    return this.#maxBlockMs;
  }
}
