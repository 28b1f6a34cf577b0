import type { Clock } from "../core/clock.js";
import { rateLimitsFor } from "../exchange/rate-limits.js";

/** Rate-limit verdict for one request: the headers to send and whether it may proceed. */
export interface RateVerdict {
  readonly allowed: boolean;
  /** Tightest applicable bucket (lowest remaining); undefined when no rule applies. */
  readonly limit?: number;
  readonly remaining?: number;
  /** Whole seconds until that bucket's window refills (the spec's delta seconds). */
  readonly resetSeconds?: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Fixed-window buckets per (rule bucket, ip) and (rule bucket, wallet), built from the shared
 * rate-limit table, wallet limits scaled by the partner's rateLimitPerMin. Both scopes must pass;
 * a refused request consumes nothing. Windows are aligned to multiples of their length on the
 * injected clock, as fixed windows are.
 */
export class FixedWindowLimiter {
  readonly #clock: Clock;
  readonly #windows = new Map<string, Window>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Counts a request and returns the verdict.
   * @example limiter.check("POST", "/api/orders/place", { ip: "127.0.0.1", wallet: "0xabc…", rateLimitPerMin: 600 })
   */
  check(
    method: string,
    path: string,
    who: { ip: string; wallet: string | undefined; rateLimitPerMin: number; query?: Record<string, unknown> },
  ): RateVerdict {
    const now = this.#clock.now();
    const rules = rateLimitsFor(method, path, {
      rateLimitPerMin: who.rateLimitPerMin,
      ...(who.query === undefined ? {} : { query: who.query }),
    });
    const slots = rules.flatMap((r) => {
      const subject = r.rule.scope === "ip" ? who.ip : who.wallet;
      if (subject === undefined) return []; // public call without a wallet: only the ip bucket applies
      const key = `${r.rule.bucket}|${r.rule.scope}|${subject}`;
      const start = now - (now % r.windowMs);
      let w = this.#windows.get(key);
      if (w === undefined || w.start !== start) {
        w = { start, count: 0 };
        this.#windows.set(key, w);
      }
      return [{ w, limit: r.limit, resetMs: start + r.windowMs - now }];
    });
    if (slots.length === 0) return { allowed: true };
    const allowed = slots.every((s) => s.w.count < s.limit);
    if (allowed) for (const s of slots) s.w.count++;
    // Refused: report the blocking bucket that refills last, so Retry-After is long enough for all.
    const tightest = allowed
      ? slots.reduce((a, b) => (b.limit - b.w.count < a.limit - a.w.count ? b : a))
      : slots.filter((s) => s.w.count >= s.limit).reduce((a, b) => (b.resetMs > a.resetMs ? b : a));
    return {
      allowed,
      limit: tightest.limit,
      remaining: Math.max(0, tightest.limit - tightest.w.count),
      resetSeconds: Math.max(1, Math.ceil(tightest.resetMs / 1000)),
    };
  }

  /** Drops windows that ended (bounded memory on long runs). */
  sweep(): void {
    const now = this.#clock.now();
    for (const [k, w] of this.#windows) if (now - w.start > 120_000) this.#windows.delete(k);
  }
}
