/**
 * How long to wait after a 429 before the next request of its kind: one rule for every waiter — the
 * rate budget's holds (the order queue's writes, the gated reads: RateBudget.rateLimited) and the HTTP
 * client's own retries of idempotent calls (retry-policy.ts). It lives beside the client, the lowest
 * of them, so that the execution layer imports it rather than the client copying it.
 */

/** The longest window of the spec's rate-limit table, ms: a Retry-After never needs more (GATE_MAX_BLOCK_MS). */
export const LONGEST_RATE_WINDOW_MS = 60_000;

/**
 * The shortest one hold lasts, ms, and the shortest Retry-After taken as the server's own figure. The
 * spec allows `Retry-After: 0` (delta seconds), and a server that rounds down sends it with up to
 * 999 ms of its window left: held for 0, a cancel answered so was sent again in the same millisecond,
 * three times, then reported failed (and the client's retries of a GET went out back to back). A
 * tenth of a second is twice the cancel bucket's refill interval (20/s) and more than the IP place
 * bucket's (60 ms); it spreads the retries but does not wait out a whole rounded-down second (the
 * retries after it may still draw 429s: see RateLimitStreak). An explicit cap below it wins (the
 * budget's maxBlockMs, the client's retry.maxDelayMs): the floor is a guess at a server's rounding.
 */
export const MIN_BLOCK_MS = 100;

/** The wait assumed for a 429 that carries no Retry-After (the order queue's and the read gate's default). */
export const ABSENT_RETRY_AFTER_MS = 1_000;

/**
 * Whether a 429's Retry-After (ms) is a wait to honour as sent: present and at least MIN_BLOCK_MS.
 * @example isUsableRetryAfter(1_000) // true
 * @example isUsableRetryAfter(0) // false: a server rounding down, with up to 999 ms left
 */
export function isUsableRetryAfter(retryAfterMs: number | undefined): retryAfterMs is number {
  return retryAfterMs !== undefined && retryAfterMs >= MIN_BLOCK_MS;
}

/**
 * One waiter's run of 429s (one op of the rate budget; one call of the HTTP client). A usable
 * Retry-After is the server's own figure and is honoured as sent: it ends the streak, so an honest
 * `Retry-After: 1` repeated by a 429 storm waits 1 s each time (doubled, the storm's twentieth 429
 * held ~50 s past what the server asked). Only a 429 with no usable wait — absent, 0, or below
 * MIN_BLOCK_MS — is a step: the wait is at least MIN_BLOCK_MS, doubled for each such 429 in a row
 * that answered a retry — a request sent once the previous 429's wait had ended, no other answer
 * between — and at most the waiter's cap. A 429 to a request sent before that wait ended (one of the
 * same burst, still in flight) is the same step. A server that rounds its delta seconds down answers
 * `Retry-After: 0` with up to 999 ms of its window left; waited out for a flat 100 ms, a cancel's
 * retries all fell inside that second. Doubling (100, 200, 400, 800 ms) outlasts it within four
 * retries, and a server that keeps answering 0 costs a request per doubling, not ten a second. Any
 * other answer ends the streak, and so does a quiet spell: a request sent over
 * LONGEST_RATE_WINDOW_MS after the last wait ended was no retry.
 * @example const s = new RateLimitStreak(); s.waitMs(0, 5, 0, 1_000, 60_000) // 100; s.waitMs(105, 110, 0, 1_000, 60_000) // 200
 */
export class RateLimitStreak {
  #steps = 0;
  #heldUntil = Number.NEGATIVE_INFINITY;

  /**
   * The wait for a 429 to a request sent at `sentAt`, answered at `now`, that carried `retryAfterMs`
   * (undefined: no header): the Retry-After as sent when usable (the streak ends), else the larger
   * of this step's floor and `absentMs` for a missing header or the sent figure. `capMs` is the
   * longest wait the waiter applies (it caps the floor; the streak counts a longer wait as cut there).
   * @example s.waitMs(0, 5, 0, 1_000, 60_000) // 100; then s.waitMs(105, 110, 0, 1_000, 60_000) // 200
   * @example s.waitMs(0, 5, 1_000, 1_000, 60_000) // 1_000, however many came before
   * @example s.waitMs(0, 5, undefined, 1_000, 60_000) // 1_000 (and the floor doubles underneath)
   */
  waitMs(
    sentAt: number,
    now: number,
    retryAfterMs: number | undefined,
    absentMs: number,
    capMs: number,
  ): number {
    if (isUsableRetryAfter(retryAfterMs)) {
      this.reset();
      return retryAfterMs;
    }
    const wait = Math.max(this.#floorMs(sentAt, now, capMs), retryAfterMs ?? absentMs);
    this.#heldUntil = Math.max(this.#heldUntil, now + Math.min(wait, capMs));
    return wait;
  }

  /** The floor for a 429 to a request sent at `sentAt`, answered at `now` (its wait ends at now + floor or later). */
  #floorMs(sentAt: number, now: number, capMs: number): number {
    if (sentAt - this.#heldUntil > LONGEST_RATE_WINDOW_MS) this.reset();
    if (sentAt >= this.#heldUntil) this.#steps++;
    // 2^20 × 100 ms is far beyond any cap: the exponent stays bounded however long the streak.
    const floor = Math.min(capMs, MIN_BLOCK_MS * 2 ** Math.min(20, Math.max(0, this.#steps - 1)));
    this.#heldUntil = Math.max(this.#heldUntil, now + floor);
    return floor;
  }

  /** An answer that was not a 429 (or a 429 with a usable Retry-After). */
  reset(): void {
    this.#steps = 0;
    this.#heldUntil = Number.NEGATIVE_INFINITY;
  }
}
