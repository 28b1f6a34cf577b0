import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { ExchangeError, type ExchangeOutcome } from "../../../src/exchange/exchange-error.js";
import {
  backoffDelayMs,
  DEFAULT_RETRY_SETTINGS,
  decideRetry,
  isIdempotent,
  type RetryEvent,
  withRetry,
} from "../../../src/exchange/retry-policy.js";

const S = DEFAULT_RETRY_SETTINGS;

function err(
  code: string,
  outcome: ExchangeOutcome,
  httpStatus?: number,
  retryAfterMs?: number,
): ExchangeError {
  return new ExchangeError({ code, message: code, outcome, endpoint: "GET /x", httpStatus, retryAfterMs });
}

describe("backoffDelayMs", () => {
  it("starts at 200 ms and doubles, jitter only lengthening by up to half", () => {
    expect(backoffDelayMs(1, S, () => 0)).toBe(200);
    expect(backoffDelayMs(2, S, () => 0)).toBe(400);
    expect(backoffDelayMs(3, S, () => 0)).toBe(800);
    expect(backoffDelayMs(1, S, () => 1)).toBe(300);
    expect(backoffDelayMs(2, S, () => 0.5)).toBe(500);
  });

  it("stays within [exp, 1.5 exp] and never above the 10 s cap, for any random value", () => {
    for (let retry = 1; retry <= 12; retry++) {
      const exp = 200 * 2 ** (retry - 1);
      for (let i = 0; i <= 100; i++) {
        const d = backoffDelayMs(retry, S, () => i / 100);
        expect(d).toBeGreaterThanOrEqual(Math.min(exp, 10_000));
        expect(d).toBeLessThanOrEqual(Math.min(exp * 1.5, 10_000));
      }
    }
    expect(backoffDelayMs(7, S, () => 0)).toBe(10_000); // 12.8 s capped
  });

  it("clamps a misbehaving random source into [0, 1]", () => {
    expect(backoffDelayMs(1, S, () => -5)).toBe(200);
    expect(backoffDelayMs(1, S, () => 7)).toBe(300);
  });
});

describe("decideRetry", () => {
  it("retries only idempotent methods (GET, DELETE)", () => {
    expect(isIdempotent("GET")).toBe(true);
    expect(isIdempotent("DELETE")).toBe(true);
    expect(isIdempotent("POST")).toBe(false);
    const e = err("exchange_unavailable", "retryable", 503);
    expect(decideRetry(e, 1, "POST", S, () => 0)).toEqual({ retry: false, reason: "not_idempotent" });
    expect(decideRetry(e, 1, "DELETE", S, () => 0)).toEqual({ retry: true, delayMs: 200, reason: "backoff" });
  });

  it("waits Retry-After on 429, and refuses one longer than maxRetryAfterMs", () => {
    expect(decideRetry(err("rate_limited", "retryable", 429, 3000), 1, "GET", S, () => 0)).toEqual({
      retry: true,
      delayMs: 3000,
      reason: "retry_after",
    });
    // A usable Retry-After shorter than the back-off is still what a 429 asks for.
    expect(decideRetry(err("rate_limited", "retryable", 429, 150), 2, "GET", S, () => 0)).toMatchObject({
      delayMs: 150,
    });
    // One of 0 (a server rounding down) is no usable wait: at least 100 ms, the first of its run.
    expect(decideRetry(err("rate_limited", "retryable", 429, 0), 2, "GET", S, () => 0)).toMatchObject({
      delayMs: 100,
      reason: "retry_after",
    });
    expect(decideRetry(err("rate_limited", "retryable", 429, 61_000), 1, "GET", S, () => 0)).toEqual({
      retry: false,
      reason: "retry_after_too_long",
    });
    // Without the header, a 429 backs off.
    expect(decideRetry(err("rate_limited", "retryable", 429), 1, "GET", S, () => 0)).toMatchObject({
      delayMs: 200,
    });
  });

  it("backs off on 5xx and transport failures, honouring a longer Retry-After on a 503", () => {
    for (const e of [
      err("idempotency_race", "ambiguous", 500),
      err("http_error", "ambiguous", 502),
      err("connect_failed", "retryable"),
      err("connection_lost", "ambiguous"),
      err("request_timeout", "ambiguous"),
    ]) {
      expect(decideRetry(e, 1, "GET", S, () => 0)).toEqual({ retry: true, delayMs: 200, reason: "backoff" });
    }
    expect(
      decideRetry(err("exchange_unavailable", "retryable", 503, 5000), 1, "GET", S, () => 0),
    ).toMatchObject({
      delayMs: 5000,
      reason: "retry_after",
    });
    expect(
      decideRetry(err("exchange_unavailable", "retryable", 503, 50), 1, "GET", S, () => 0),
    ).toMatchObject({
      delayMs: 200,
      reason: "backoff",
    });
  });

  it("never retries rejects, malformed bodies, an open circuit, or past the attempt cap", () => {
    expect(decideRetry(err("bad_request", "rejected", 400), 1, "GET", S, () => 0).retry).toBe(false);
    expect(decideRetry(err("not_implemented", "rejected", 501), 1, "GET", S, () => 0).retry).toBe(false);
    expect(decideRetry(err("malformed_response", "ambiguous", 200), 1, "GET", S, () => 0).retry).toBe(false);
    expect(decideRetry(err("circuit_open", "retryable"), 1, "GET", S, () => 0).retry).toBe(false);
    expect(decideRetry(err("exchange_unavailable", "retryable", 503), 3, "GET", S, () => 0)).toEqual({
      retry: false,
      reason: "attempts_exhausted",
    });
    expect(decideRetry(new Error("bug"), 1, "GET", S, () => 0)).toEqual({
      retry: false,
      reason: "not_exchange_error",
    });
  });
});

describe("withRetry on SimClock", () => {
  it("makes at most 3 attempts, waiting the back-off on the injected clock between them", async () => {
    const clock = new SimClock(1_000);
    const attemptsAt: number[] = [];
    const events: RetryEvent[] = [];
    const randoms = [0.25, 0.75];
    const run = withRetry(
      async () => {
        attemptsAt.push(clock.now());
        throw err("exchange_unavailable", "retryable", 503);
      },
      {
        method: "GET",
        endpoint: "GET /x",
        clock,
        random: () => randoms.shift() ?? 0,
        settings: S,
        onRetry: (e) => events.push(e),
      },
    );
    const settled = run.then(
      () => "resolved",
      (e: unknown) => e,
    );
    await Promise.resolve();
    await flush();
    expect(attemptsAt).toEqual([1_000]);
    expect(clock.nextDeadline()).toBe(1_000 + 225); // 200 × (1 + 0.5 × 0.25)
    clock.advanceBy(224);
    await flush();
    expect(attemptsAt).toHaveLength(1); // not a millisecond early
    clock.advanceBy(1);
    await flush();
    expect(attemptsAt).toEqual([1_000, 1_225]);
    clock.advanceBy(550); // 400 × (1 + 0.5 × 0.75)
    await flush();
    expect(attemptsAt).toEqual([1_000, 1_225, 1_775]);
    const final = await settled;
    expect(final).toBeInstanceOf(ExchangeError);
    expect((final as ExchangeError).code).toBe("exchange_unavailable");
    expect(events.map((e) => [e.attempt, e.delayMs, e.reason])).toEqual([
      [1, 225, "backoff"],
      [2, 550, "backoff"],
    ]);
    expect(clock.pending).toBe(0);
  });

  it("returns the first success and does not retry a POST", async () => {
    const clock = new SimClock(0);
    let n = 0;
    const value = withRetry(
      async () => {
        n++;
        if (n === 1) throw err("connect_failed", "retryable");
        return "ok";
      },
      { method: "GET", endpoint: "GET /x", clock, random: () => 0, settings: S },
    );
    await flush();
    clock.advanceBy(200);
    await expect(value).resolves.toBe("ok");
    expect(n).toBe(2);

    let posts = 0;
    await expect(
      withRetry(
        async () => {
          posts++;
          throw err("connect_failed", "retryable");
        },
        { method: "POST", endpoint: "POST /api/orders/place", clock, random: () => 0, settings: S },
      ),
    ).rejects.toMatchObject({ code: "connect_failed" });
    expect(posts).toBe(1);
  });
});

/** Lets pending promise callbacks run (SimClock timers fire synchronously on advance). */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
