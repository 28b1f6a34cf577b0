import { afterEach, describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { HttpTransport } from "../../../src/exchange/transport.js";
import { sampleOrder, silentLogger, standardHeaders } from "../../support/exchange-fixtures.js";
import {
  closedPort,
  sendJson,
  startTestServer,
  type TestHandler,
  type TestServer,
} from "../../support/http-test-server.js";
import { clientFor, exchangeError, placeRequest } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(
  handler: TestHandler,
  clock?: SimClock,
): Promise<{ server: TestServer; client: ExchangeHttpClient }> {
  const server = await startTestServer(handler);
  const client = clientFor(server, clock === undefined ? {} : { clock, timeoutMs: 1_000 });
  cleanups.push(async () => {
    client.close();
    await server.close();
  });
  return { server, client };
}

const withdrawal = {
  amount: "5",
  destination: "0x3333333333333333333333333333333333333333",
  signature: "0x00",
};

describe("rejected: definite answers", () => {
  it("classifies 4xx and 200/201 business rejects as rejected", async () => {
    const { server, client } = await setup((_r, res) =>
      sendJson(res, 409, { code: "market_not_open", message: "paused" }),
    );
    expect(await client.orders.place(placeRequest())).toMatchObject({
      kind: "rejected",
      code: "market_not_open",
      retryable: false,
    });
    server.setHandler((_r, res) => sendJson(res, 501, { code: "not_implemented", message: "off" }));
    expect((await exchangeError(client.me.portfolio())).outcome).toBe("rejected");
  });
});

describe("retryable: the exchange did not act", () => {
  it("classifies 429 and 503 as retryable", async () => {
    const { server, client } = await setup((_r, res) =>
      sendJson(res, 503, {
        status: 503,
        error: { code: "exchange_unavailable", message: "down", trace_id: "t" },
      }),
    );
    expect(await client.orders.place(placeRequest())).toMatchObject({
      kind: "rejected",
      code: "exchange_unavailable",
      retryable: true,
    });
    server.setHandler((_r, res) =>
      sendJson(res, 429, { status: 429, error: { code: "rate_limited", message: "x", trace_id: "t" } }),
    );
    expect((await exchangeError(client.orders.open())).outcome).toBe("retryable");
  });

  it("classifies connection refused on a closed port as connect_failed, retryable", async () => {
    const port = await closedPort();
    const refused = clientFor({ url: `http://127.0.0.1:${port}` } as TestServer);
    cleanups.push(() => refused.close());
    const err = await exchangeError(refused.markets.list());
    expect(err).toMatchObject({
      code: "connect_failed",
      outcome: "retryable",
      details: { written: false, errno: "ECONNREFUSED" },
    });
    expect(err.requestId).toBeUndefined();
    expect(await refused.orders.place(placeRequest())).toMatchObject({
      kind: "rejected",
      code: "connect_failed",
      retryable: true,
    });
  });
});

describe("ambiguous: the request left and no definite answer came back", () => {
  it("reads the whole body, then destroys the socket: connection_lost, ambiguous, never resent", async () => {
    const { server, client } = await setup((_req, res) => {
      res.socket?.destroy();
    });
    const req = placeRequest();
    const out = await client.orders.place(req);
    expect(out).toMatchObject({
      kind: "ambiguous",
      error: { code: "connection_lost", outcome: "ambiguous", details: { written: true } },
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.json).toEqual(req); // the server had the whole order
  });

  it("counts a request on a pooled keep-alive socket as written the moment it is sent", async () => {
    let n = 0;
    const { server, client } = await setup((_req, res) => {
      n++;
      if (n === 1) sendJson(res, 200, [sampleOrder()]);
      else res.socket?.destroy();
    });
    expect(await client.orders.open()).toHaveLength(1);
    const out = await client.orders.place(placeRequest());
    expect(out).toMatchObject({
      kind: "ambiguous",
      error: { code: "connection_lost", details: { written: true } },
    });
    expect(server.connectionCount).toBe(1); // the placement went out on the reused socket
  });

  it("refuses a response body above the size limit as malformed (ambiguous)", async () => {
    const server = await startTestServer((_req, res) =>
      sendJson(res, 201, { orderId: "o", padding: "x".repeat(4096) }),
    );
    const transport = new HttpTransport({
      baseUrl: server.url,
      clock: new LiveClock(),
      logger: silentLogger(),
      timeoutMs: 5_000,
      maxBodyBytes: 1024,
    });
    cleanups.push(async () => {
      transport.close();
      await server.close();
    });
    const err = await exchangeError(
      transport.send({ method: "POST", route: "/api/orders/place", path: "/api/orders/place", body: {} }),
    );
    expect(err).toMatchObject({ code: "malformed_response", outcome: "ambiguous", httpStatus: 201 });
  });

  it("never answers within the timeout: request_timeout, ambiguous (SimClock-driven)", async () => {
    const clock = new SimClock(0);
    const { server, client } = await setup(() => undefined, clock);
    let settled = false;
    const pending = client.orders.place(placeRequest()).finally(() => {
      settled = true;
    });
    await server.waitForRequests(1);
    clock.advanceBy(999);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    clock.advanceBy(1);
    const out = await pending;
    expect(out).toMatchObject({
      kind: "ambiguous",
      error: { code: "request_timeout", outcome: "ambiguous" },
    });
    const w = client.withdrawals.request(withdrawal);
    await server.waitForRequests(2);
    clock.advanceBy(1_000);
    expect(await exchangeError(w)).toMatchObject({
      code: "request_timeout",
      outcome: "ambiguous",
      endpoint: "POST /api/withdrawals/request",
    });
    expect(server.requests).toHaveLength(2);
  });

  it("loses the connection mid-body: connection_lost with the status seen", async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(201, {
        "content-type": "application/json",
        "content-length": "500",
        "x-request-id": "rq-cut",
      });
      res.write('{"orderId":"ord-1","status":"OP');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const out = await client.orders.place(placeRequest());
    expect(out).toMatchObject({
      kind: "ambiguous",
      error: { code: "connection_lost", httpStatus: 201, requestId: "rq-cut", details: { written: true } },
    });
  });

  it("classifies 500 idempotency_race, 502 and 503 exchange_malformed_response / transport_error as ambiguous", async () => {
    const { server, client } = await setup((_r, res) =>
      sendJson(res, 500, { code: "idempotency_race", message: "race" }, standardHeaders("rq-race")),
    );
    expect(await client.orders.place(placeRequest())).toMatchObject({
      kind: "ambiguous",
      error: { code: "idempotency_race", requestId: "rq-race" },
    });
    server.setHandler((_r, res) => sendJson(res, 502, "bad gateway"));
    expect(await client.orders.place(placeRequest())).toMatchObject({
      kind: "ambiguous",
      error: { code: "http_error", httpStatus: 502 },
    });
    server.setHandler((_r, res) =>
      sendJson(res, 503, {
        status: 503,
        error: { code: "exchange_malformed_response", message: "non-JSON upstream", trace_id: "t" },
      }),
    );
    expect(await client.orders.place(placeRequest())).toMatchObject({
      kind: "ambiguous",
      error: { code: "exchange_malformed_response" },
    });
    // The gateway lost its connection to the exchange: the order may have reached the matcher, so
    // it is reconciled by its clientOrderId, not sent again (spec: do not auto-retry place-order).
    server.setHandler((_r, res) =>
      sendJson(res, 503, {
        status: 503,
        error: { code: "exchange_transport_error", message: "connection failed", trace_id: "t" },
      }),
    );
    expect(await client.orders.place(placeRequest())).toMatchObject({
      kind: "ambiguous",
      error: { code: "exchange_transport_error" },
    });
  });
});
