import type { IncomingHttpHeaders } from "node:http";

/** What the exchange last said about the tightest bucket that applied to an endpoint. */
export interface RateLimitState {
  /** X-RateLimit-Limit. */
  limit: number;
  /** X-RateLimit-Remaining. */
  remaining: number;
  /** Local clock time at which the bucket refills (observation time + X-RateLimit-Reset seconds). */
  resetAt: number;
  /** Local clock time of the response that carried these headers. */
  observedAt: number;
}

/**
 * Reads the three rate-limit headers. X-RateLimit-Reset is delta seconds until refill (not an epoch),
 * so it is anchored to the local clock reading at receipt. Undefined when any header is missing or bad.
 * @example readRateLimitHeaders({ "x-ratelimit-limit": "600", "x-ratelimit-remaining": "599", "x-ratelimit-reset": "60" }, 0)
 * // { limit: 600, remaining: 599, resetAt: 60000, observedAt: 0 }
 */
export function readRateLimitHeaders(headers: IncomingHttpHeaders, now: number): RateLimitState | undefined {
  const limit = intHeader(headers["x-ratelimit-limit"]);
  const remaining = intHeader(headers["x-ratelimit-remaining"]);
  const reset = numHeader(headers["x-ratelimit-reset"]);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, resetAt: now + Math.round(reset * 1000), observedAt: now };
}

/**
 * Retry-After in milliseconds. The spec sends delta seconds; an HTTP-date is also accepted (RFC 9110)
 * and measured against `serverNow`, the time on the clock that wrote it: the exchange's, as the
 * transport estimates it from X-Server-Time (ServerClock). Measured against the host's clock, a host
 * an hour behind held the op for an hour and five seconds (the cap then cut it to 60 s); one ahead
 * by more than the wait retried at once. Undefined when absent or unreadable.
 * @example readRetryAfterMs("2", 0) // 2000
 */
export function readRetryAfterMs(
  value: string | string[] | undefined,
  serverNow: number,
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === "") return undefined;
  const seconds = numHeader(raw);
  if (seconds !== undefined) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - serverNow);
}

/**
 * Last seen rate-limit state per endpoint (`METHOD /route/template`). The order queue reads it to pace
 * itself against what the exchange reports rather than only the static table.
 */
export class RateLimitTracker {
  readonly #byEndpoint = new Map<string, RateLimitState>();

  update(endpoint: string, state: RateLimitState): void {
    this.#byEndpoint.set(endpoint, state);
  }

  /** Last state seen for `endpoint`, e.g. `"POST /api/orders/place"`. */
  get(endpoint: string): RateLimitState | undefined {
    return this.#byEndpoint.get(endpoint);
  }

  /** Every endpoint seen so far with its last state. */
  entries(): ReadonlyMap<string, RateLimitState> {
    return this.#byEndpoint;
  }
}

function numHeader(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || !/^\s*\d+(?:\.\d+)?\s*$/.test(raw)) return undefined;
  return Number(raw);
}

function intHeader(value: string | string[] | undefined): number | undefined {
  const n = numHeader(value);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}
