import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/core/errors.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import {
  sampleMarket,
  sampleOrder,
  silentLogger,
  TEST_API_KEY,
  TEST_WALLET,
} from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer } from "../../support/http-test-server.js";
import { clientFor, exchangeError, placeRequest } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function serve(
  handler: Parameters<typeof startTestServer>[0],
  opts?: Parameters<typeof startTestServer>[1],
) {
  const server = await startTestServer(handler, opts);
  cleanups.push(() => server.close());
  return server;
}

function track<T extends { close(): void }>(c: T): T {
  cleanups.push(() => c.close());
  return c;
}

describe("request headers", () => {
  it("sends X-Api-Key and a JSON body, and no X-User-Wallet for a single_wallet key", async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 201, { orderId: "o1", status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] }),
    );
    const client = track(clientFor(server));
    const req = placeRequest();
    await client.orders.place(req);
    const seen = server.requests[0];
    expect(seen?.headers["x-api-key"]).toBe(TEST_API_KEY);
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(seen?.headers["x-user-wallet"]).toBeUndefined();
    expect(seen?.json).toEqual(req);
  });

  it("sends X-User-Wallet on every request for a multi_wallet key", async () => {
    const server = await serve((req, res) =>
      req.method === "GET" ? sendJson(res, 200, [sampleOrder()]) : sendJson(res, 200, { cancelled: 2 }),
    );
    const client = track(clientFor(server, { userWallet: TEST_WALLET }));
    await client.orders.open();
    await client.orders.cancelAll();
    expect(server.requests.map((r) => r.headers["x-user-wallet"])).toEqual([TEST_WALLET, TEST_WALLET]);
  });

  it("refuses a malformed userWallet at construction", () => {
    expect(
      () =>
        new ExchangeHttpClient({
          baseUrl: "http://127.0.0.1:1",
          userWallet: "0x123",
          clock: new SimClock(),
          logger: silentLogger(),
        }),
    ).toThrow(ValidationError);
  });
});

describe("response headers", () => {
  it("records X-RateLimit-* per endpoint, anchoring the reset delta to the clock", async () => {
    const clock = new SimClock(1_000_000);
    const server = await serve((req, res) => {
      const place = req.path === "/api/orders/place";
      const headers = place
        ? { "x-ratelimit-limit": "50", "x-ratelimit-remaining": "48", "x-ratelimit-reset": "1" }
        : { "x-ratelimit-limit": "600", "x-ratelimit-remaining": "599", "x-ratelimit-reset": "60" };
      if (place)
        sendJson(
          res,
          201,
          { orderId: "o1", status: "OPEN", filledQty: "0", remainingQty: "1", trades: [] },
          headers,
        );
      else sendJson(res, 200, [sampleMarket()], headers);
    });
    const client = track(clientFor(server, { clock }));
    await client.markets.list();
    await client.orders.place(placeRequest());
    expect(client.rateLimit("GET /api/markets")).toEqual({
      limit: 600,
      remaining: 599,
      resetAt: 1_060_000,
      observedAt: 1_000_000,
    });
    expect(client.rateLimit("POST /api/orders/place")).toEqual({
      limit: 50,
      remaining: 48,
      resetAt: 1_001_000,
      observedAt: 1_000_000,
    });
    expect([...client.rateLimits.entries().keys()].sort()).toEqual([
      "GET /api/markets",
      "POST /api/orders/place",
    ]);
  });

  it("reads Retry-After (delta seconds) onto a 429 error", async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        429,
        { status: 429, error: { code: "rate_limited", message: "bucket", trace_id: "t" } },
        { "retry-after": "3" },
      ),
    );
    const client = track(clientFor(server));
    const out = await client.orders.place(placeRequest());
    expect(out).toMatchObject({
      kind: "rejected",
      code: "rate_limited",
      retryable: true,
      error: { retryAfterMs: 3_000, httpStatus: 429 },
    });
  });

  it("estimates the server clock offset from X-Server-Time with the RTT/2 correction", async () => {
    const clock = new SimClock(1_700_000_000_000);
    const skew = 5_000;
    const server = await serve((_req, res) => {
      // 50 ms out, stamp, 50 ms back: the stamp sits at the midpoint of a 100 ms round trip.
      clock.advanceBy(50);
      const stamp = clock.now() + skew;
      clock.advanceBy(50);
      sendJson(res, 200, { ok: true }, { "x-server-time": String(stamp) });
    });
    const client = track(clientFor(server, { clock }));
    await client.platform.status();
    expect(client.serverClock.snapshot()).toEqual({ offsetMs: skew, lastRttMs: 100, samples: 1 });
    expect(client.serverClock.serverNow()).toBe(clock.now() + skew);
  });

  it("exposes X-API-Version and puts X-Request-Id and X-Trace-Id on errors", async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        404,
        { code: "order_not_found", message: "no such order" },
        { "x-api-version": "2026-04-01", "x-request-id": "rq-404", "x-trace-id": "tr-404" },
      ),
    );
    const client = track(clientFor(server));
    expect(client.apiVersion).toBeUndefined();
    const err = await exchangeError(client.orders.get("nope"));
    expect(err).toMatchObject({
      code: "order_not_found",
      requestId: "rq-404",
      traceId: "tr-404",
      httpStatus: 404,
    });
    expect(client.apiVersion).toBe("2026-04-01");
  });
});

describe("keep-alive", () => {
  it("reuses one connection for sequential requests", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, sampleMarket()));
    const client = track(clientFor(server));
    for (let i = 0; i < 5; i++) await client.markets.get(`m-${i}`);
    expect(server.requests).toHaveLength(5);
    expect(server.connectionCount).toBe(1);
    expect(new Set(server.requests.map((r) => r.connectionId))).toEqual(new Set([1]));
    expect(new Set(server.requests.map((r) => r.remotePort)).size).toBe(1);
  });

  it("opens parallel connections for concurrent requests and reuses them afterwards", async () => {
    const server = await serve((_req, res) => {
      setTimeout(() => sendJson(res, 200, sampleMarket()), 20);
    });
    const client = track(clientFor(server));
    await Promise.all([client.markets.get("a"), client.markets.get("b"), client.markets.get("c")]);
    await Promise.all([client.markets.get("a"), client.markets.get("b"), client.markets.get("c")]);
    expect(server.connectionCount).toBe(3);
  });
});
