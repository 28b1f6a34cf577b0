import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { budgetGate } from "../../../src/execution/rate-budget-wait.js";
import { sampleOrder, TEST_WALLET } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor, exchangeError, placeRequest } from "../exchange/helpers.js";

/*
 * HttpExchange.gateRequests: the engine's rate budget paces the order reads at the HTTP client, where
 * each request (each page of a paged read, each retry) is seen, rather than once per port call.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ORDER = sampleOrder({ id: "o1", clientOrderId: "c1" });

/** A server with a three-page history, an order that fails once with 503, positions and placements. */
async function exchangeServer(): Promise<TestServer> {
  let failed = false;
  const srv = await startTestServer((req, res) => {
    if (req.path.startsWith("/api/orders/history")) {
      const page = Number(req.query.get("cursor") ?? "0");
      const orders = [sampleOrder({ id: `h${page}`, clientOrderId: `x${page}` })];
      sendJson(res, 200, {
        walletAddress: TEST_WALLET,
        orders,
        nextCursor: page < 2 ? String(page + 1) : null,
      });
    } else if (req.path === "/api/orders/o1") {
      if (!failed) {
        failed = true;
        sendJson(res, 503, { error: "exchange_unavailable", message: "try again" });
      } else sendJson(res, 200, ORDER);
    } else if (req.path === "/api/me/positions") sendJson(res, 200, []);
    else if (req.path === "/api/orders/place")
      sendJson(res, 201, { orderId: "p1", status: "OPEN", filledQty: "0", clientOrderId: "mm-a1-b0-1" });
    else sendJson(res, 404, { error: "not_found", message: "no route" });
  });
  server = srv;
  return srv;
}

describe("HttpExchange.gateRequests", () => {
  it("asks the gate before every attempt: each history page, the retry after a 503, reads and writes alike", async () => {
    const srv = await exchangeServer();
    const exchange = new HttpExchange(clientFor(srv, { retry: { maxAttempts: 2, baseDelayMs: 1 } }));
    const asked: string[] = [];
    exchange.gateRequests((method, route) => {
      asked.push(`${method} ${route}`);
      return undefined;
    });
    await exchange.ordersByClientId(["missing"]);
    expect(await exchange.order("o1")).toMatchObject({ id: "o1" });
    await exchange.positions();
    await exchange.place(placeRequest());
    expect(asked).toEqual([
      "GET /api/orders/history",
      "GET /api/orders/history",
      "GET /api/orders/history",
      "GET /api/orders/{id}",
      "GET /api/orders/{id}",
      "GET /api/me/positions",
      "POST /api/orders/place",
    ]);
  });

  it("with the budget's gate, an order read waits for its token; other requests do not", async () => {
    const srv = await exchangeServer();
    const exchange = new HttpExchange(clientFor(srv));
    const clock = new SimClock(1_750_000_000_000);
    // 0.01× the baseline: 6 order reads a minute, a burst of one, then one every ~10 s.
    const budget = new RateBudget({ rateLimitPerMin: 6, marginMs: 0 });
    exchange.gateRequests(budgetGate(budget, clock, "order_reads"));
    await exchange.ordersByClientId(["x0"]); // one page (found at once): the burst's token
    expect(srv.requests.map((r) => r.path.split("?")[0])).toEqual(["/api/orders/history"]);
    let answered = false;
    const second = exchange.order("o1").then(
      () => {
        answered = true;
      },
      () => {
        answered = true;
      },
    );
    await exchange.positions(); // me-reads: not the order_reads budget's, sent at once
    await exchange.place(placeRequest()); // the order queue spends the place budget itself
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    expect(srv.requests.map((r) => r.path)).toEqual([
      expect.stringMatching(/^\/api\/orders\/history/),
      "/api/me/positions",
      "/api/orders/place",
    ]);
    clock.advanceTo(clock.nextDeadline() ?? Number.POSITIVE_INFINITY);
    await second;
    expect(srv.requests.at(-1)?.path).toBe("/api/orders/o1");
    expect(clock.now() - 1_750_000_000_000).toBe(10_000);
  });

  it("a 429 on an order read blocks the order reads until its Retry-After: then the retry and a second read go once each, one bucket token apart", async () => {
    const clock = new SimClock(T);
    let limited = false;
    const srv = await startTestServer(
      (req, res) => {
        if (req.path === "/api/orders/o1" && !limited) {
          limited = true;
          sendJson(res, 429, { error: "rate_limited", message: "slow down" }, { "Retry-After": "30" });
        } else if (req.path.startsWith("/api/orders/")) sendJson(res, 200, ORDER);
        else if (req.path === "/api/me/positions") sendJson(res, 200, []);
        else sendJson(res, 404, { error: "not_found", message: "no route" });
      },
      { now: () => clock.now() },
    );
    server = srv;
    // The client shares the SimClock, so its own Retry-After wait is simulated time too.
    const exchange = new HttpExchange(
      clientFor(srv, { clock, timeoutMs: 600_000, retry: { maxAttempts: 2, baseDelayMs: 1 } }),
    );
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 }); // a burst of 100 reads
    exchange.gateRequests(budgetGate(budget, clock, "order_reads"));
    const first = exchange.order("o1");
    await srv.waitForRequests(1);
    await settle();
    // The 429 is in; the client waits out its Retry-After. Another order read now waits as well,
    // rather than drawing its own 429; a read of another bucket goes at once.
    const second = exchange.order("o2");
    await exchange.positions();
    await settle();
    expect(paths(srv)).toEqual(["/api/orders/o1", "/api/me/positions"]);
    expect(budget.available("order_reads", clock.now())).toBe(0);
    clock.advanceTo(clock.nextDeadline() ?? Number.POSITIVE_INFINITY);
    expect(clock.now() - T).toBe(30_000);
    await srv.waitForRequests(3);
    await settle();
    // Not together: after a hold the bucket lets its waiters go at its rate (600 a minute: 100 ms).
    expect(srv.requests).toHaveLength(3);
    clock.advanceTo(clock.nextDeadline() ?? Number.POSITIVE_INFINITY);
    await Promise.all([first, second]);
    expect(srv.requests.map((r) => r.receivedAt - T)).toEqual([0, 0, 30_000, 30_100]);
    expect(paths(srv).slice(2).sort()).toEqual(["/api/orders/o1", "/api/orders/o2"]);
  });

  it("an order read's X-RateLimit-* headers charge what another process spent: the next read waits for the reset", async () => {
    const clock = new SimClock(T);
    const srv = await startTestServer((req, res) => {
      // The wallet's 600 reads of this window are spent: one by us, 599 by another process.
      const headers = { "X-RateLimit-Limit": "600", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "20" };
      if (req.path.startsWith("/api/orders/")) sendJson(res, 200, ORDER, headers);
      else sendJson(res, 404, { error: "not_found", message: "no route" });
    });
    server = srv;
    const exchange = new HttpExchange(clientFor(srv)); // the wall clock: headers are re-anchored
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    exchange.gateRequests(budgetGate(budget, clock, "order_reads"));
    await exchange.order("o1");
    expect(budget.available("order_reads", clock.now())).toBe(0);
    let answered = false;
    const second = exchange.order("o2").finally(() => {
      answered = true;
    });
    await settle();
    expect(answered).toBe(false);
    expect(paths(srv)).toEqual(["/api/orders/o1"]);
    clock.advanceTo(clock.nextDeadline() ?? Number.POSITIVE_INFINITY);
    await second;
    expect(paths(srv)).toEqual(["/api/orders/o1", "/api/orders/o2"]);
    expect(clock.now() - T).toBe(20_000);
  });

  it("the budget's gate leaves placements ungated and unobserved, and a failed read without headers charges nothing", async () => {
    const clock = new SimClock(T);
    const srv = await startTestServer((req, res) => {
      const headers = { "X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1" };
      if (req.path === "/api/orders/place")
        sendJson(
          res,
          429,
          { error: "rate_limited", message: "slow down" },
          { ...headers, "Retry-After": "5" },
        );
      else sendJson(res, 503, { error: "exchange_unavailable", message: "try again" });
    });
    server = srv;
    const exchange = new HttpExchange(clientFor(srv));
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    exchange.gateRequests(budgetGate(budget, clock, "order_reads"));
    const placed = await exchange.place(placeRequest());
    expect(placed.kind).toBe("rejected");
    // The order queue blocks its own op on a placement's 429; the read gate leaves it alone.
    expect(budget.available("place", clock.now())).toBe(50);
    expect(budget.available("order_reads", clock.now())).toBe(100);
    expect((await exchangeError(exchange.order("o1"))).httpStatus).toBe(503);
    expect(budget.available("order_reads", clock.now())).toBe(99);
  });
});

const T = 1_750_000_000_000;

/** Lets sockets and promise chains run (no simulated time passes). */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
}

function paths(srv: TestServer): string[] {
  return srv.requests.map((r) => r.path);
}
