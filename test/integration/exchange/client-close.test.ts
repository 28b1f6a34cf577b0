import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GateAnswer, GateTicket } from "../../../src/exchange/caller.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import type { RetryEvent } from "../../../src/exchange/retry-policy.js";
import {
  sendJson,
  startTestServer,
  type TestHandler,
  type TestServer,
} from "../../support/http-test-server.js";
import { clientFor, exchangeError } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const s503: TestHandler = (_r, res) =>
  sendJson(res, 503, {
    status: 503,
    error: { code: "exchange_unavailable", message: "down", trace_id: "t" },
  });

/**
 * A client on a SimClock with a generous retry budget: its back-off waits never end unless the test
 * advances the clock, so a call that is still pending after close() is one the close did not end.
 */
async function setup(handler: TestHandler) {
  const clock = new SimClock(0);
  const server: TestServer = await startTestServer(handler, { now: () => clock.now() });
  const retries: RetryEvent[] = [];
  let retried: () => void = () => {};
  const firstRetry = new Promise<void>((resolve) => {
    retried = resolve;
  });
  const client: ExchangeHttpClient = clientFor(server, {
    clock,
    retry: { maxAttempts: 10, baseDelayMs: 1_000, maxDelayMs: 1_000, jitter: 0 },
    breaker: { minRequests: 1_000 },
    onRetry: (e) => {
      retries.push(e);
      retried();
    },
  });
  cleanups.push(async () => {
    client.close();
    await server.close();
  });
  return { clock, server, client, retries, firstRetry };
}

/** Settles with `p`'s outcome, or fails when it takes longer than `ms` of real time. */
async function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets sockets and timers run for a moment of real time. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("ExchangeHttpClient.close()", () => {
  it("ends a call waiting in its retry back-off at once with client_closed, and sends nothing more", async () => {
    const { clock, server, client, retries, firstRetry } = await setup(s503);
    const call = client.orders.open();
    await within(firstRetry, 5_000);
    expect(server.requests).toHaveLength(1);

    client.close();
    const err = await within(exchangeError(call), 2_000);
    expect(err.code).toBe("client_closed");
    expect(err.outcome).toBe("rejected"); // the 503 said nothing was done, and nothing more is sent
    expect(err.endpoint).toBe("GET /api/orders/open");

    // Whatever the abandoned back-off would have waited for, no retry goes out.
    clock.advanceBy(60_000);
    await settle();
    expect(server.requests).toHaveLength(1);
    expect(retries).toHaveLength(1);
  });

  it("refuses a new request after close without sending it", async () => {
    const { server, client } = await setup(s503);
    client.close();
    const err = await within(exchangeError(client.orders.open()), 2_000);
    expect(err).toMatchObject({ code: "client_closed", outcome: "rejected" });
    await settle();
    expect(server.requests).toHaveLength(0);
  });

  it("does not retry a read that was in flight when the client closed", async () => {
    const { clock, server, client } = await setup(() => {
      // Never answers: the read is in flight when close() comes.
    });
    const call = client.orders.open();
    await within(server.waitForRequests(1), 5_000);
    client.close();
    const err = await within(exchangeError(call), 2_000);
    // The cut request may have reached the server: its outcome stays ambiguous.
    expect(err).toMatchObject({ code: "client_closed", outcome: "ambiguous" });
    clock.advanceBy(60_000);
    await settle();
    expect(server.requests).toHaveLength(1);
  });

  it("ends many calls waiting to retry at once, without a listener-leak warning", async () => {
    const { server, client, retries } = await setup(s503);
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      const calls = Array.from({ length: 12 }, () => exchangeError(client.orders.open()));
      await within(server.waitForRequests(12), 5_000);
      while (retries.length < 12) await settle();
      client.close();
      const errs = await within(Promise.all(calls), 2_000);
      expect(errs.map((e) => e.code)).toEqual(Array(12).fill("client_closed"));
      await settle();
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

/**
 * A hand-written request gate that holds every request it is asked about until the test releases
 * it (as the engine's rate budget holds an order read until a token is free).
 */
function holdingGate() {
  const asked: string[] = [];
  const answers: GateAnswer[] = [];
  const held: ((ticket: GateTicket) => void)[] = [];
  const gate = (method: string, route: string) => {
    asked.push(`${method} ${route}`);
    return new Promise<GateTicket | undefined>((resolve) => held.push(resolve));
  };
  /** Lets every held request go, each with a ticket that records its answer. */
  const releaseAll = () => {
    for (const let_go of held.splice(0)) let_go((answer) => answers.push(answer));
  };
  return { gate, asked, answers, held, releaseAll };
}

describe("ExchangeHttpClient.close() and the request gate", () => {
  it("wakes a call waiting on the gate at once with client_closed; nothing is sent when the gate lets it go", async () => {
    const { server, client } = await setup((_r, res) => sendJson(res, 200, []));
    const g = holdingGate();
    client.gateRequests(g.gate);
    const call = exchangeError(client.orders.open());
    while (g.held.length < 1) await settle();
    expect(g.asked).toEqual(["GET /api/orders/open"]);

    client.close();
    const err = await within(call, 2_000);
    expect(err).toMatchObject({
      code: "client_closed",
      outcome: "rejected",
      endpoint: "GET /api/orders/open",
    });

    g.releaseAll();
    await settle();
    expect(server.requests).toHaveLength(0);
    expect(g.answers).toEqual([]);
  });

  it("does not ask the gate for a call made after close (no rate token spent for it)", async () => {
    const { server, client } = await setup((_r, res) => sendJson(res, 200, []));
    const g = holdingGate();
    client.gateRequests(g.gate);
    client.close();
    const err = await within(exchangeError(client.orders.open()), 2_000);
    expect(err).toMatchObject({ code: "client_closed", outcome: "rejected" });
    expect(g.asked).toEqual([]);
    await settle();
    expect(server.requests).toHaveLength(0);
  });

  it("a retry held by the gate after an attempt that may have acted (502) ends ambiguous on close", async () => {
    const { clock, server, client, firstRetry } = await setup((_r, res) =>
      sendJson(res, 502, { error: { code: "bad_gateway", message: "upstream" } }),
    );
    const g = holdingGate();
    let first = true;
    client.gateRequests((method, route) => {
      if (!first) return g.gate(method, route);
      first = false;
      return undefined; // the first attempt goes at once
    });
    const call = exchangeError(client.orders.open());
    await within(firstRetry, 5_000);
    clock.advanceBy(1_000); // the back-off ends: the retry now waits on the gate
    while (g.held.length < 1) await settle();

    client.close();
    const err = await within(call, 2_000);
    expect(err).toMatchObject({ code: "client_closed", outcome: "ambiguous", httpStatus: 502 });
    g.releaseAll();
    await settle();
    expect(server.requests).toHaveLength(1);
  });
});
