import { type Clock, sleepUnlessAborted } from "../core/clock.js";
import { clientClosedError, ExchangeError } from "./exchange-error.js";
import { RateLimitStreak } from "./rate-limit-streak.js";

/**
 * The spec's retry guidance as settings. Defaults are the spec's numbers: back-off from 200 ms, capped
 * at 10 s, at most 3 attempts.
 */
export interface RetrySettings {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** Back-off before the first retry, ms; doubles per retry. */
  baseDelayMs: number;
  /** No back-off wait exceeds this, ms. */
  maxDelayMs: number;
  /** Jitter as a fraction added on top: a wait lies in [exp, exp × (1 + jitter)], then capped. */
  jitter: number;
  /** A Retry-After longer than this is not waited out inside a call; the error goes to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_SETTINGS: Readonly<RetrySettings> = {
  maxAttempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  jitter: 0.5,
  maxRetryAfterMs: 60_000,
};

/**
 * Methods the client retries by itself: the spec's idempotent calls (GET, DELETE).
 *
 * Every POST is left to the caller, not only placement and withdrawal requests (which the spec forbids
 * retrying): a retried cancel can land after the order manager has moved on, and a retried signature
 * request mints a second co-signature. The caller has the intent and the clientOrderId/nonce that make
 * a resend safe; the error's `outcome` tells it whether a resend is needed at all.
 */
export function isIdempotent(method: string): boolean {
  return method === "GET" || method === "DELETE";
}

/**
 * Exponential back-off with jitter before retry number `retry` (1 = first retry): the base is
 * `baseDelayMs × 2^(retry−1)`, jitter stretches it by up to `jitter` (never shortens it, so the first wait
 * is at least the spec's 200 ms), and nothing exceeds `maxDelayMs`.
 * @example backoffDelayMs(1, DEFAULT_RETRY_SETTINGS, () => 0) // 200
 * @example backoffDelayMs(2, DEFAULT_RETRY_SETTINGS, () => 0.5) // 500
 */
export function backoffDelayMs(retry: number, settings: RetrySettings, random: () => number): number {
  const exp = settings.baseDelayMs * 2 ** Math.max(0, retry - 1);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(Math.min(settings.maxDelayMs, exp * (1 + settings.jitter * r)));
}

export type RetryDecision =
  | { retry: true; delayMs: number; reason: "retry_after" | "backoff" }
  | {
      retry: false;
      reason:
        | "not_exchange_error"
        | "not_idempotent"
        | "not_retryable"
        | "attempts_exhausted"
        | "retry_after_too_long";
    };

/**
 * A call's run of 429s so far (RateLimitStreak, the rule the rate budget holds its ops by) and when the
 * attempt that just failed was sent and answered.
 */
export interface RetryStreak {
  streak: RateLimitStreak;
  sentAt: number;
  now: number;
}

/**
 * Whether to retry after `attempt` attempts failed with `err`, and how long to wait first.
 * - 429: a usable Retry-After (at least 100 ms) is waited as sent; one of 0 or under 100 ms, or none,
 *   waits at least 100 ms doubled for each retry of the call answered so again (`streak`; RateLimitStreak,
 *   shared with the rate budget), capped at `maxDelayMs`, and with no header at least the back-off.
 *   Without `streak` the 429 is taken as the first of its run.
 * - Other retryable or ambiguous failures (5xx, transport): back-off; a Retry-After on them is honoured
 *   when longer. They end the 429 streak.
 * - Never: non-idempotent methods, definite rejects, malformed bodies (they would not parse next time
 *   either), an open circuit (the breaker owns that wait), or once `maxAttempts` is reached.
 */
export function decideRetry(
  err: unknown,
  attempt: number,
  method: string,
  settings: RetrySettings,
  random: () => number,
  streak?: RetryStreak,
): RetryDecision {
  if (!(err instanceof ExchangeError)) return { retry: false, reason: "not_exchange_error" };
  if (err.httpStatus !== 429) streak?.streak.reset();
  if (!isIdempotent(method)) return { retry: false, reason: "not_idempotent" };
  if (err.outcome === "rejected" || err.code === "circuit_open" || err.code === "malformed_response") {
    return { retry: false, reason: "not_retryable" };
  }
  if (attempt >= settings.maxAttempts) return { retry: false, reason: "attempts_exhausted" };
  const backoff = backoffDelayMs(attempt, settings, random);
  if (err.retryAfterMs !== undefined && err.retryAfterMs > settings.maxRetryAfterMs) {
    return { retry: false, reason: "retry_after_too_long" };
  }
  if (err.httpStatus === 429) {
    // `Retry-After: 0` answered at once drew the next 429 within the same millisecond: the same
    // escalating floor as the rate budget's holds, so a server that keeps answering 0 is not hammered.
    const s = streak ?? { streak: new RateLimitStreak(), sentAt: 0, now: 0 };
    const delayMs = s.streak.waitMs(s.sentAt, s.now, err.retryAfterMs, backoff, settings.maxDelayMs);
    return { retry: true, delayMs, reason: err.retryAfterMs === undefined ? "backoff" : "retry_after" };
  }
  if (err.retryAfterMs !== undefined && err.retryAfterMs > backoff) {
    return { retry: true, delayMs: err.retryAfterMs, reason: "retry_after" };
  }
  return { retry: true, delayMs: backoff, reason: "backoff" };
}

export interface RetryEvent {
  endpoint: string;
  /** Attempts made so far (the one that just failed included). */
  attempt: number;
  delayMs: number;
  reason: "retry_after" | "backoff";
  error: ExchangeError;
}

export interface RetryContext {
  method: string;
  endpoint: string;
  clock: Clock;
  random: () => number;
  settings: RetrySettings;
  /** Called before each wait; the wait starts right after it returns. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Aborted when the client closes: no retry is sent after it, and a wait in progress ends at once. */
  closed?: AbortSignal | undefined;
}

/**
 * Runs `attempt` until it succeeds or {@link decideRetry} says stop, waiting on the injected clock
 * between attempts (so SimClock drives it in tests). The last error is rethrown unchanged, except
 * when `ctx.closed` aborts before or during a wait: the call then fails at once as `client_closed`.
 * @example const body = await withRetry((n) => send(n), { method: "GET", endpoint, clock, random: Math.random, settings });
 */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, ctx: RetryContext): Promise<T> {
  let previous: ExchangeError | undefined;
  const streak = new RateLimitStreak();
  for (let n = 1; ; n++) {
    const sentAt = ctx.clock.now();
    try {
      return await attempt(n);
    } catch (err) {
      // A retry refused by the close (waiting on the request gate, or at the transport) is reported
      // as the call it ends: an earlier attempt that may have taken effect keeps it ambiguous.
      if (previous !== undefined && isBareClientClosed(err)) throw clientClosedError(ctx.endpoint, previous);
      const at = { streak, sentAt, now: ctx.clock.now() };
      const decision = decideRetry(err, n, ctx.method, ctx.settings, ctx.random, at);
      if (!decision.retry) throw err;
      const last = err as ExchangeError;
      previous = last;
      if (ctx.closed?.aborted === true) throw clientClosedError(ctx.endpoint, last);
      ctx.onRetry?.({
        endpoint: ctx.endpoint,
        attempt: n,
        delayMs: decision.delayMs,
        reason: decision.reason,
        error: last,
      });
      if (!(await sleepUnlessAborted(ctx.clock, decision.delayMs, ctx.closed))) {
        throw clientClosedError(ctx.endpoint, last);
      }
    }
  }
}

/** A `client_closed` refusal of a request never sent (no failed attempt behind it). */
function isBareClientClosed(err: unknown): boolean {
  return err instanceof ExchangeError && err.code === "client_closed" && err.cause === undefined;
}
