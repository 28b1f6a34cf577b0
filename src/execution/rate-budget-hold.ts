import type { BudgetOp } from "./rate-budget.js";

/**
 * The longest one Retry-After holds an op of the rate budget (RateBudget.block applies it to every
 * caller: the order queue's writes, the gated reads, any later one). The spec's Retry-After is the delta seconds until
 * the tightest bucket refills (X-RateLimit-Reset), so it never exceeds that bucket's window, and no
 * window in the rate-limit table is longer than 60 s; it is also the HTTP client's maxRetryAfterMs.
 * A longer one is not the rate limit the spec describes (a proxy's or a misconfigured server's
 * figure): held for the whole of it, every reconcile — fill backfill, ghost resolution — would stop.
 * Held this long, the next read asks again; an exchange still limiting answers another 429.
 */
export const GATE_MAX_BLOCK_MS = 60_000;

/**
 * The shortest one hold lasts, ms. The spec allows `Retry-After: 0` (delta seconds), and a server
 * that rounds down sends it with up to 999 ms of its window left: held for 0, a cancel answered so
 * was sent again in the same millisecond, three times, then reported failed. A tenth of a second is
 * twice the cancel bucket's refill interval (20/s) and more than the IP place bucket's (60 ms); it
 * spreads the retries but does not wait out a whole rounded-down second (the retries after it may
 * still draw 429s). A budget whose maxBlockMs is lower holds for that cap instead (RateBudget.block).
 */
export const MIN_BLOCK_MS = 100;

/** The wait assumed for a 429 that carries no Retry-After (the order queue's and the read gate's default). */
export const ABSENT_RETRY_AFTER_MS = 1_000;

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

/**
 * The floor of one op's 429 hold when the 429 gave no usable wait (no Retry-After, or one below
 * MIN_BLOCK_MS; RateBudget.rateLimited honours a usable one as sent and resets this): MIN_BLOCK_MS,
 * doubled for each such 429 in a row that answered a retry — a request sent once the previous 429's
 * hold had ended, no other answer between — and at most `capMs`. A 429 to a request sent before that
 * hold ended (one of the same burst, still in flight) is the same step. A server that rounds its delta seconds down answers `Retry-After: 0` with up
 * to 999 ms of its window left; held for a flat 100 ms, a cancel's retries all fell inside that
 * second. Doubling (100, 200, 400, 800 ms) outlasts it within four retries, and a server that keeps
 * answering 0 costs a request per doubling, not ten a second. Any other answer ends the streak, and
 * so does a quiet spell: a request sent over GATE_MAX_BLOCK_MS after the last hold ended was no retry.
 * @example const s = new RateLimitStreak(); s.floorMs(0, 0, 60_000) // 100; s.floorMs(100, 101, 60_000) // 200
 */
export class RateLimitStreak {
  #steps = 0;
  #heldUntil = Number.NEGATIVE_INFINITY;

  /** The floor for a 429 to a request sent at `sentAt`, answered at `now` (its hold ends at now + floor or later). */
  floorMs(sentAt: number, now: number, capMs: number): number {
    if (sentAt - this.#heldUntil > GATE_MAX_BLOCK_MS) this.reset();
    if (sentAt >= this.#heldUntil) this.#steps++;
    // 2^20 × 100 ms is far beyond any cap: the exponent stays bounded however long the streak.
    const floor = Math.min(capMs, MIN_BLOCK_MS * 2 ** Math.min(20, Math.max(0, this.#steps - 1)));
    this.#heldUntil = Math.max(this.#heldUntil, now + floor);
    return floor;
  }

  /** The hold actually applied ended at `until` (a Retry-After longer than the floor). */
  heldUntil(until: number): void {
    this.#heldUntil = Math.max(this.#heldUntil, until);
  }

  /** An answer that was not a 429. */
  reset(): void {
    this.#steps = 0;
    this.#heldUntil = Number.NEGATIVE_INFINITY;
  }
}
