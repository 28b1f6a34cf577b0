import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { budgetGate } from "../../../src/execution/rate-budget-wait.js";
import { type ExchangeObserver, instrumentExchange } from "../../../src/observability/instrument-exchange.js";
import { sampleOrder } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor, exchangeError } from "../exchange/helpers.js";

/*
 * The order reads' request gate (the engine's order_reads budget) against a real HTTP client and a
 * scripted server on 127.0.0.1, everything on one SimClock: a Retry-After beyond any rate window,
 * a read whose client closed while it waited, and what the latency histogram measures.
 */

const T = 1_750_000_000_000;
const ORDER = sampleOrder({ id: "o1", clientOrderId: "c1" });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A server that answers the first order read with `first` (status, Retry-After s), then 200. */
async function rig(first?: { status: number; retryAfter: string }) {
  const clock = new SimClock(T);
  let answered = false;
  const server: TestServer = await startTestServer(
    (req, res) => {
      if (!req.path.startsWith("/api/orders/")) {
        sendJson(res, 404, { error: "not_found", message: "no route" });
      } else if (first !== undefined && !answered) {
        answered = true;
        const error = first.status === 429 ? "rate_limited" : "exchange_unavailable";
        sendJson(res, first.status, { error, message: "later" }, { "Retry-After": first.retryAfter });
      } else if (req.path === "/api/orders/open") sendJson(res, 200, { orders: [ORDER] });
      else sendJson(res, 200, ORDER);
    },
    { now: () => clock.now() },
  );
  const client = clientFor(server, { clock, timeoutMs: 3_600_000 });
  cleanups.push(async () => {
    client.close();
    await server.close();
  });
  const warned: string[] = [];
  const log = { warn: (_obj: object, msg: string) => warned.push(msg) };
  const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, log }); // a burst of 100 reads
  return { clock, server, client, budget, warned, gate: budgetGate(budget, clock, "order_reads") };
}

/**
 * Advances the SimClock timer by timer until `p` settles (real time only for sockets). Only timers
 * within a rate window are jumped to: the client's request timeout (an hour) must never fire while
 * an answer is on its way.
 */
async function drive<T>(clock: SimClock, p: Promise<T>): Promise<T> {
  let done = false;
  const settled = p.finally(() => {
    done = true;
  });
  settled.catch(() => {}); // rejected while looping: still returned (and awaited) below
  for (let i = 0; i < 400 && !done; i++) {
    await new Promise((r) => setTimeout(r, 5));
    const next = clock.nextDeadline();
    if (!done && next !== undefined && next - clock.now() <= 61_000) clock.advanceTo(next);
  }
  return settled;
}

describe("order reads' gate: a long Retry-After", () => {
  it("a 429 with Retry-After: 300 on an order read holds the next read 60 s, not 5 minutes, with one warning", async () => {
    const r = await rig({ status: 429, retryAfter: "300" });
    const exchange = new HttpExchange(r.client);
    exchange.gateRequests(r.gate);
    // The client does not wait 300 s inside a call (maxRetryAfterMs): the reconcile's read fails.
    expect((await exchangeError(exchange.order("o1"))).httpStatus).toBe(429);
    const next = await drive(r.clock, exchange.order("o1"));
    expect(next.id).toBe("o1");
    expect(r.server.requests.map((q) => q.receivedAt - T)).toEqual([0, 60_000]);
    expect(r.warned).toHaveLength(1);
  });

  it("a 503 with Retry-After: 300 holds no other order read", async () => {
    const r = await rig({ status: 503, retryAfter: "300" });
    const exchange = new HttpExchange(r.client);
    exchange.gateRequests(r.gate);
    expect((await exchangeError(exchange.order("o1"))).httpStatus).toBe(503);
    await exchange.order("o1");
    expect(r.server.requests.map((q) => q.receivedAt - T)).toEqual([0, 0]);
    expect(r.warned).toEqual([]);
  });
});

describe("order reads' gate: the client closes while a read waits", () => {
  it("the gate's wait ends with the call: no token spent when the budget frees, no timer left", async () => {
    const r = await rig();
    const exchange = new HttpExchange(r.client);
    exchange.gateRequests(r.gate);
    r.budget.block("order_reads", T, 30_000);
    const read = exchange.order("o1");
    await new Promise((res) => setTimeout(res, 20));
    expect(r.clock.nextDeadline()).toBe(T + 30_000);
    r.client.close();
    expect((await exchangeError(read)).code).toBe("client_closed");
    await new Promise((res) => setTimeout(res, 20));
    expect(r.clock.nextDeadline()).toBeUndefined();
    r.clock.advanceTo(T + 60_000);
    await new Promise((res) => setTimeout(res, 20));
    expect(r.budget.available("order_reads", r.clock.now())).toBe(100);
    expect(r.server.requests).toEqual([]);
  });
});

describe("order reads' latency histogram", () => {
  it("the wait for the budget is observed apart (mm_http_gate_wait_seconds), beside the call's whole duration", async () => {
    const r = await rig();
    const http: [string, string, number][] = [];
    const gateWaits: [string, number][] = [];
    const observer: ExchangeObserver = {
      observeHttp: (endpoint, outcome, seconds) => http.push([endpoint, outcome, seconds]),
      observeGateWait: (endpoint, seconds) => gateWaits.push([endpoint, seconds]),
      onPlacementSending: () => {},
      onPlacementAnswered: () => {},
    };
    // The histogram's stopwatch reads the SimClock: only simulated time (the gate's wait) can pass.
    const exchange = instrumentExchange(new HttpExchange(r.client), observer, () => r.clock.now());
    exchange.gateRequests?.(r.gate);
    r.budget.block("order_reads", T, 10_000);
    await drive(r.clock, exchange.order("o1"));
    expect(r.clock.now() - T).toBe(10_000);
    // The call's duration includes its pacing; the gate's histogram says how much of it that was.
    expect(http).toEqual([["GET /api/orders/{id}", "ok", 10]]);
    expect(gateWaits).toEqual([["GET /api/orders/{id}", 10]]);
    // A read that did not wait: its wait is observed as 0 (the histogram counts every gated request).
    // (After the hold the bucket grants a token per 100 ms: the next one is due by then.)
    r.clock.advanceTo(r.clock.now() + 100);
    await exchange.openOrders();
    expect(http.at(-1)).toEqual(["GET /api/orders/open", "ok", 0]);
    expect(gateWaits).toEqual([
      ["GET /api/orders/{id}", 10],
      ["GET /api/orders/open", 0],
    ]);
  });
});
