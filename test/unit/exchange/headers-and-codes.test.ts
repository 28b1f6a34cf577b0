import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import {
  CATALOGUE_CODES,
  CLIENT_CODES,
  EXCHANGE_CODES,
  isClientCode,
  isExchangeCode,
  WS_4401_REASONS,
} from "../../../src/exchange/codes.js";
import { classifyHttpFailure, classifyTransportFailure } from "../../../src/exchange/exchange-error.js";
import { buildPath } from "../../../src/exchange/paths.js";
import { readRateLimitHeaders, readRetryAfterMs } from "../../../src/exchange/rate-limit-state.js";
import { ServerClock } from "../../../src/exchange/server-clock.js";

describe("codes", () => {
  it("holds the 43 catalogue codes, the WebSocket 4401 reasons, and no duplicates", () => {
    expect(CATALOGUE_CODES).toHaveLength(43);
    expect(new Set(EXCHANGE_CODES).size).toBe(EXCHANGE_CODES.length);
    for (const reason of WS_4401_REASONS) expect(isExchangeCode(reason)).toBe(true);
    expect(isExchangeCode("api_key_auth_disabled")).toBe(true);
    expect(isExchangeCode("api_key_auth_unconfigured")).toBe(true);
    expect(isExchangeCode("exchange_upstream_error")).toBe(true);
    expect(isExchangeCode("something_new")).toBe(false);
  });

  it("keeps client codes disjoint from exchange codes", () => {
    for (const c of CLIENT_CODES) {
      expect(isClientCode(c)).toBe(true);
      expect(isExchangeCode(c)).toBe(false);
    }
  });
});

describe("classification tables", () => {
  it("classifies HTTP failures by status (and the one 503 code that means the upstream answered)", () => {
    expect(classifyHttpFailure(400, "bad_signature")).toBe("rejected");
    expect(classifyHttpFailure(201, "insufficient_funds")).toBe("rejected");
    expect(classifyHttpFailure(409, "market_not_open")).toBe("rejected");
    expect(classifyHttpFailure(429, "rate_limited")).toBe("retryable");
    expect(classifyHttpFailure(503, "exchange_unavailable")).toBe("retryable");
    expect(classifyHttpFailure(503, "http_error")).toBe("retryable"); // no code: a proxy's 503
    // "Connection failed" does not say the upstream never got it (found by review).
    expect(classifyHttpFailure(503, "exchange_transport_error")).toBe("ambiguous");
    expect(classifyHttpFailure(503, "exchange_malformed_response")).toBe("ambiguous");
    expect(classifyHttpFailure(500, "idempotency_race")).toBe("ambiguous");
    expect(classifyHttpFailure(502, "http_error")).toBe("ambiguous");
    expect(classifyHttpFailure(504, "http_error")).toBe("ambiguous");
    expect(classifyHttpFailure(501, "not_implemented")).toBe("rejected");
  });

  it("classifies transport failures by whether the request can have left", () => {
    expect(classifyTransportFailure(false)).toBe("retryable");
    expect(classifyTransportFailure(true)).toBe("ambiguous");
  });
});

describe("header readers", () => {
  it("anchors X-RateLimit-Reset (delta seconds) to the local clock", () => {
    expect(
      readRateLimitHeaders(
        { "x-ratelimit-limit": "50", "x-ratelimit-remaining": "49", "x-ratelimit-reset": "1" },
        5_000,
      ),
    ).toEqual({ limit: 50, remaining: 49, resetAt: 6_000, observedAt: 5_000 });
    expect(readRateLimitHeaders({ "x-ratelimit-limit": "50" }, 0)).toBeUndefined();
    expect(
      readRateLimitHeaders(
        { "x-ratelimit-limit": "x", "x-ratelimit-remaining": "1", "x-ratelimit-reset": "1" },
        0,
      ),
    ).toBeUndefined();
  });

  it("reads Retry-After as delta seconds or an HTTP-date", () => {
    expect(readRetryAfterMs("2", 0)).toBe(2_000);
    expect(readRetryAfterMs("0.5", 0)).toBe(500);
    expect(readRetryAfterMs(undefined, 0)).toBeUndefined();
    expect(readRetryAfterMs("soon", 0)).toBeUndefined();
    const now = Date.parse("2026-06-01T00:00:00Z");
    expect(readRetryAfterMs("Mon, 01 Jun 2026 00:00:03 GMT", now)).toBe(3_000);
  });
});

describe("ServerClock", () => {
  it("corrects each sample by half the round trip and smooths later samples", () => {
    const clock = new SimClock(1_000_000);
    const sc = new ServerClock(clock, 0.5);
    expect(sc.offsetMs).toBeUndefined();
    expect(sc.serverNow()).toBe(1_000_000);
    // Sent at 1 000 000, stamped by the server at its 1 005 050 (= local 1 000 050), received at 1 000 100.
    sc.observe(1_000_000, 1_000_100, 1_005_050);
    expect(sc.offsetMs).toBe(5_000);
    expect(sc.serverNow()).toBe(1_005_000);
    // A second sample 200 ms further off moves the estimate by alpha × 200.
    sc.observe(1_000_200, 1_000_300, 1_005_450);
    expect(sc.offsetMs).toBe(5_100);
    expect(sc.snapshot()).toEqual({ offsetMs: 5_100, lastRttMs: 100, samples: 2 });
  });

  it("trusts a slow sample less and ignores nonsense", () => {
    const clock = new SimClock(0);
    const sc = new ServerClock(clock, 0.4);
    sc.observe(0, 10, 1_005); // offset 1000, rtt 10
    sc.observe(100, 1_100, 2_600); // rtt 1000 ≫ 2×10+10: weight 0.1; sample 2600 − 600 = 2000
    expect(sc.offsetMs).toBeCloseTo(1_100, 6);
    sc.observe(10, 5, 99); // received before sent
    sc.observe(0, 1, Number.NaN);
    expect(sc.snapshot().samples).toBe(2);
    expect(() => new ServerClock(clock, 0)).toThrow(RangeError);
  });
});

describe("buildPath", () => {
  it("encodes path parameters and query values, leaving out undefined ones", () => {
    expect(buildPath("/api/orders/{id}/fills", { id: "a/b?c" })).toBe("/api/orders/a%2Fb%3Fc/fills");
    expect(buildPath("/api/orders/history", {}, { cursor: "k+/=&x", limit: 2, status: undefined })).toBe(
      "/api/orders/history?cursor=k%2B%2F%3D%26x&limit=2",
    );
    expect(() => buildPath("/api/orders/{id}", {})).toThrow(RangeError);
  });
});
