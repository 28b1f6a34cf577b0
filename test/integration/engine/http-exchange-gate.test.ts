import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { budgetGate } from "../../../src/execution/rate-budget-wait.js";
import { sampleOrder, TEST_WALLET } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor, placeRequest } from "../exchange/helpers.js";

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
});
