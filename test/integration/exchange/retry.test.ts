import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import type { RetryEvent, RetrySettings } from "../../../src/exchange/retry-policy.js";
import { sampleOrder, sampleWithdrawal } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestHandler } from "../../support/http-test-server.js";
import { clientFor, exchangeError, placeRequest } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/**
 * A client on a SimClock whose retry waits are driven by the test: each announced wait is advanced by
 * exactly its length once the client has scheduled it, so request times on the server (stamped with the
 * same SimClock) show the back-off the policy chose.
 */
async function setup(responses: TestHandler[], randoms: number[] = [], retry: Partial<RetrySettings> = {}) {
  const clock = new SimClock(0);
  let i = 0;
  const server = await startTestServer(
    (req, res) => {
      const respond = responses[Math.min(i++, responses.length - 1)] as TestHandler;
      return respond(req, res);
    },
    { now: () => clock.now() },
  );
  const retries: RetryEvent[] = [];
  const client: ExchangeHttpClient = clientFor(server, {
    clock,
    retry,
    random: () => randoms.shift() ?? 0,
    breaker: { minRequests: 1_000 },
    onRetry: (e) => {
      retries.push(e);
      setImmediate(() => clock.advanceBy(e.delayMs));
    },
  });
  cleanups.push(async () => {
    client.close();
    await server.close();
  });
  return { clock, server, client, retries, times: () => server.requests.map((r) => r.receivedAt) };
}

const s503: TestHandler = (_r, res) =>
  sendJson(res, 503, {
    status: 503,
    error: { code: "exchange_unavailable", message: "down", trace_id: "t" },
  });
const s500: TestHandler = (_r, res) => sendJson(res, 500, { code: "idempotency_race", message: "race" });
const s502: TestHandler = (_r, res) => sendJson(res, 502, "<html>bad gateway</html>");
/** A 429 in the nested envelope; `retryAfter` is the header as sent (undefined: none). */
function s429(retryAfter?: string): TestHandler {
  return (_r, res) =>
    sendJson(
      res,
      429,
      { status: 429, error: { code: "rate_limited", message: "x", trace_id: "t" } },
      retryAfter === undefined ? {} : { "retry-after": retryAfter },
    );
}
const okOpen: TestHandler = (_r, res) => sendJson(res, 200, [sampleOrder()]);
const kill: TestHandler = (_r, res) => {
  res.socket?.destroy();
};

describe("retry policy against a real server, on SimClock", () => {
  it("waits Retry-After seconds on 429, then retries", async () => {
    const s429: TestHandler = (_r, res) =>
      sendJson(
        res,
        429,
        { status: 429, error: { code: "rate_limited", message: "x", trace_id: "t" } },
        { "retry-after": "2" },
      );
    const { client, retries, times } = await setup([s429, okOpen]);
    expect(await client.orders.open()).toHaveLength(1);
    expect(times()).toEqual([0, 2_000]);
    expect(retries.map((r) => [r.attempt, r.delayMs, r.reason, r.error.code])).toEqual([
      [1, 2_000, "retry_after", "rate_limited"],
    ]);
  });

  it("waits longer each time a retry is answered 429 with Retry-After: 0 (100, 200, 400, 800 ms)", async () => {
    const zero = s429("0");
    const { client, retries, times } = await setup([zero, zero, zero, zero, okOpen], [], { maxAttempts: 5 });
    expect(await client.orders.open()).toHaveLength(1);
    // Sent at once each time, the four attempts went out within a millisecond of each other.
    expect(times()).toEqual([0, 100, 300, 700, 1_500]);
    expect(retries.map((r) => [r.delayMs, r.reason])).toEqual([
      [100, "retry_after"],
      [200, "retry_after"],
      [400, "retry_after"],
      [800, "retry_after"],
    ]);
  });

  it("honours a usable Retry-After as sent however many 429s carry it, and it ends a run of 0s", async () => {
    const one = s429("1");
    const zero = s429("0");
    const { client, times } = await setup([one, one, one, okOpen], [], { maxAttempts: 5 });
    expect(await client.orders.open()).toHaveLength(1);
    expect(times()).toEqual([0, 1_000, 2_000, 3_000]);

    const mixed = await setup([zero, zero, one, zero, okOpen], [], { maxAttempts: 5 });
    expect(await mixed.client.orders.open()).toHaveLength(1);
    // 100, 200, then the server's 1 s, then a 0 starts over at 100.
    expect(mixed.times()).toEqual([0, 100, 300, 1_300, 1_400]);
  });

  it("starts a run of 0s over after another failure, and an explicit maxDelayMs below 100 ms wins", async () => {
    const zero = s429("0");
    const { client, times } = await setup([zero, zero, s503, zero, okOpen], [], { maxAttempts: 5 });
    expect(await client.orders.open()).toHaveLength(1);
    // 100, 200, the 503's back-off (200 × 2^2 = 800), then 100 again.
    expect(times()).toEqual([0, 100, 300, 1_100, 1_200]);

    const capped = await setup([zero, zero, zero, okOpen], [], { maxAttempts: 4, maxDelayMs: 50 });
    expect(await capped.client.orders.open()).toHaveLength(1);
    expect(capped.times()).toEqual([0, 50, 100, 150]);
  });

  it("without Retry-After backs off, never below the run's floor", async () => {
    const none = s429();
    const { client, times } = await setup([none, none, okOpen], [], {});
    expect(await client.orders.open()).toHaveLength(1);
    expect(times()).toEqual([0, 200, 600]);
  });

  it("backs off exponentially with jitter on 5xx, 3 attempts at most, and surfaces the last error", async () => {
    const { client, retries, times, server } = await setup([s503, s500, s502, okOpen], [0.2, 0.9]);
    const err = await exchangeError(client.orders.open());
    expect(err).toMatchObject({ code: "http_error", httpStatus: 502 });
    expect(server.requests).toHaveLength(3);
    // 200 × (1 + 0.5 × 0.2) = 220, then 400 × (1 + 0.5 × 0.9) = 580.
    expect(retries.map((r) => r.delayMs)).toEqual([220, 580]);
    expect(times()).toEqual([0, 220, 800]);
  });

  it("keeps every wait within the jitter bounds [200, 300] then [400, 600]", async () => {
    for (const r of [0, 0.5, 0.999]) {
      const { client, retries } = await setup([s503], [r, r]);
      await exchangeError(client.orders.get("ord-1"));
      const [first, second] = retries.map((e) => e.delayMs);
      expect(first).toBeGreaterThanOrEqual(200);
      expect(first).toBeLessThanOrEqual(300);
      expect(second).toBeGreaterThanOrEqual(400);
      expect(second).toBeLessThanOrEqual(600);
    }
  });

  it("retries transport failures of idempotent calls (connection lost, then success)", async () => {
    const { client, times } = await setup([kill, okOpen]);
    expect(await client.orders.open()).toHaveLength(1);
    expect(times()).toEqual([0, 200]);
  });

  it("does not retry definite rejects", async () => {
    const { client, server } = await setup([
      (_r, res) => sendJson(res, 404, { code: "order_not_found", message: "no" }),
      okOpen,
    ]);
    expect((await exchangeError(client.orders.get("x"))).code).toBe("order_not_found");
    expect(server.requests).toHaveLength(1);
  });

  it("never retries order placement, whatever the failure", async () => {
    const s429: TestHandler = (_r, res) =>
      sendJson(
        res,
        429,
        { status: 429, error: { code: "rate_limited", message: "x", trace_id: "t" } },
        { "retry-after": "1" },
      );
    for (const failure of [s503, s500, s429, kill]) {
      const { client, server, retries } = await setup([failure, okOpen]);
      const out = await client.orders.place(placeRequest());
      expect(out.kind).not.toBe("accepted");
      expect(server.requests).toHaveLength(1);
      expect(retries).toHaveLength(0);
    }
  });

  it("never retries withdrawal requests (nor other POSTs such as cancel)", async () => {
    const created: TestHandler = (_r, res) => sendJson(res, 201, sampleWithdrawal());
    const { client, server, retries } = await setup([s503, created]);
    const body = {
      amount: "1",
      destination: "0x3333333333333333333333333333333333333333",
      signature: "0x00",
    };
    expect(await exchangeError(client.withdrawals.request(body))).toMatchObject({
      code: "exchange_unavailable",
      outcome: "retryable",
    });
    expect(server.requests).toHaveLength(1);
    server.setHandler(s503);
    await exchangeError(client.orders.cancel("ord-1"));
    await exchangeError(client.withdrawals.cancel("8b9f3a4e-0000-4000-8000-000000000001"));
    expect(server.requests).toHaveLength(3);
    expect(retries).toHaveLength(0);
  });
});
