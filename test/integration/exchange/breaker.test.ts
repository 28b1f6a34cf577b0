import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { BreakerSnapshot, BreakerState } from "../../../src/exchange/circuit-breaker.js";
import { sampleOrder } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer } from "../../support/http-test-server.js";
import { clientFor, exchangeError, placeRequest } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A server that fails with 500 while `failing` is true; a client on SimClock with retries off. */
async function setup() {
  const clock = new SimClock(0);
  const state = { failing: false };
  const server = await startTestServer((_req, res) =>
    state.failing
      ? sendJson(res, 500, {
          status: 500,
          error: { code: "exchange_unavailable", message: "boom", trace_id: "t" },
        })
      : sendJson(res, 200, [sampleOrder()]),
  );
  const changes: [BreakerState, BreakerSnapshot][] = [];
  const client = clientFor(server, {
    clock,
    onBreakerStateChange: (snap, prev) => changes.push([prev, snap]),
  });
  cleanups.push(async () => {
    client.close();
    await server.close();
  });
  const call = async (n: number, failing: boolean) => {
    state.failing = failing;
    for (let i = 0; i < n; i++) await client.orders.open().catch(() => undefined);
  };
  return { clock, server, client, changes, call };
}

describe("circuit breaker through the client, on SimClock", () => {
  it("opens above 50% failures over 30 s, then fails fast without sending", async () => {
    const { server, client, changes, call } = await setup();
    await call(5, false);
    await call(5, true);
    expect(client.breaker.snapshot()).toMatchObject({ state: "closed", failureRatio: 0.5, requests: 10 });
    await call(1, true);
    expect(client.breaker.snapshot()).toMatchObject({
      state: "open",
      opensUntil: 60_000,
      requests: 11,
      failures: 6,
    });
    expect(changes).toHaveLength(1);
    expect(changes[0]?.[0]).toBe("closed");
    expect(changes[0]?.[1]).toMatchObject({ state: "open", opensUntil: 60_000 });

    const sent = server.requests.length;
    const err = await exchangeError(client.orders.open());
    expect(err).toMatchObject({
      code: "circuit_open",
      outcome: "retryable",
      retryAfterMs: 60_000,
      endpoint: "GET /api/orders/open",
    });
    expect(await client.orders.place(placeRequest())).toMatchObject({
      kind: "rejected",
      code: "circuit_open",
      retryable: true,
    });
    await exchangeError(client.orders.cancelAll());
    expect(server.requests).toHaveLength(sent);
  });

  it("ignores failures that left the 30 s window", async () => {
    const { clock, client, call } = await setup();
    await call(6, true);
    clock.advanceBy(30_001);
    await call(4, false);
    await call(5, true);
    // Only the last 9 count: 5/9 failed, but fewer than the 10 needed to judge.
    expect(client.breaker.snapshot()).toMatchObject({ state: "closed", requests: 9, failures: 5 });
    await call(1, false);
    expect(client.breaker.snapshot()).toMatchObject({ state: "closed", requests: 10, failures: 5 });
  });

  it("pauses for 60 s, then probes and closes when the exchange answers again", async () => {
    const { clock, server, client, changes, call } = await setup();
    await call(10, true);
    expect(client.breaker.state).toBe("open");
    clock.advanceBy(59_999);
    expect((await exchangeError(client.orders.open())).code).toBe("circuit_open");
    const sent = server.requests.length;
    clock.advanceBy(1);
    expect(client.breaker.state).toBe("half-open");
    await call(1, false);
    expect(server.requests).toHaveLength(sent + 1);
    expect(client.breaker.snapshot()).toMatchObject({ state: "closed", requests: 0 });
    expect(await client.orders.open()).toHaveLength(1);
    expect(changes.map(([prev, snap]) => `${prev}->${snap.state}`)).toEqual([
      "closed->open",
      "open->half-open",
      "half-open->closed",
    ]);
  });

  it("reopens when the probe fails", async () => {
    const { clock, client, call } = await setup();
    await call(10, true);
    clock.advanceBy(60_000);
    await call(1, true);
    expect(client.breaker.snapshot()).toMatchObject({ state: "open", opensUntil: 120_000 });
  });

  it("does not count definite rejects as failures", async () => {
    const { server, client } = await setup();
    server.setHandler((_req, res) => sendJson(res, 404, { code: "order_not_found", message: "no" }));
    for (let i = 0; i < 20; i++) await exchangeError(client.orders.get("x"));
    expect(client.breaker.snapshot()).toMatchObject({ state: "closed", failures: 0, requests: 20 });
  });
});
