import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockHarness, type RawResponse, WALLET } from "./harness.js";

/**
 * The spec's Errors: each envelope, and each code the HTTP endpoints produce with its status and
 * envelope. (Placement codes with their details are in placement.test.ts, auth codes in
 * auth.test.ts, rate_limited in limits.test.ts; here every code is checked for its envelope.)
 */

let h: MockHarness;
beforeAll(async () => {
  h = await MockHarness.start();
});
afterAll(() => h.close());

function bare(res: RawResponse, code: string): void {
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe("string");
  expect(Object.keys(res.body).every((k) => ["code", "message", "details"].includes(k))).toBe(true);
  expect(res.headers.get("x-trace-id")).toBeNull();
}

function nested(res: RawResponse, code: string): void {
  expect(res.body.status).toBe(res.status);
  const error = res.body.error as { code: string; message: string; trace_id: string };
  expect(error).toMatchObject({ code, message: expect.any(String), trace_id: expect.any(String) });
  expect(res.headers.get("x-trace-id")).toBe(error.trace_id);
}

function placement(res: RawResponse, code: string): void {
  expect(res.body).toMatchObject({
    orderId: "",
    status: "REJECTED",
    filledQty: "0",
    remainingQty: expect.any(String),
    trades: [],
    code,
  });
  expect(typeof res.body.message).toBe("string");
}

const ORDER = { side: "buy", price: "0.1", quantity: "1" } as const;

describe("envelopes by code", () => {
  const cases: [string, number, "bare" | "nested" | "placement", () => Promise<RawResponse>][] = [
    ["auth_required", 401, "bare", () => h.fetch("/api/orders/open")],
    [
      "api_key_scope_missing",
      403,
      "bare",
      () => h.fetch("/api/orders/cancel-all", { key: h.keys.readOnly, body: {} }),
    ],
    [
      "wallet_banned",
      403,
      "bare",
      () => h.fetch("/api/orders/open", { key: h.keys.multiKyc, wallet: WALLET.banned }),
    ],
    ["bad_request", 400, "bare", () => h.fetch("/api/orders/history?status=nope", { key: h.keys.trader })],
    ["invalid_limit", 400, "bare", () => h.fetch("/api/me/fees?limit=0", { key: h.keys.trader })],
    ["match_not_found", 404, "bare", () => h.fetch("/api/matches/00000000-0000-4000-8000-000000000000")],
    ["market_not_found", 404, "bare", () => h.fetch("/api/markets/no-such-market")],
    ["event_not_found", 404, "bare", () => h.fetch("/api/events/no-such-event")],
    ["order_not_found", 404, "bare", () => h.fetch("/api/orders/no-such-order", { key: h.keys.trader })],
    [
      "order_not_found",
      404,
      "bare",
      () => h.fetch("/api/orders/cancel", { key: h.keys.trader, body: { orderId: "x" } }),
    ],
    ["withdrawal_not_found", 404, "bare", () => h.fetch("/api/me/withdrawals/x", { key: h.keys.trader })],
    [
      "invalid_amount",
      400,
      "bare",
      () => h.fetch("/api/withdrawals/request", { key: h.keys.trader, body: { amount: "0" } }),
    ],
    ["not_found", 404, "bare", () => h.fetch("/api/no-such-endpoint")],
    ["method_not_allowed", 405, "bare", () => h.fetch("/api/markets", { method: "POST", body: {} })],
    [
      "bad_signature",
      400,
      "placement",
      async () =>
        h.fetch("/api/orders/place", {
          key: h.keys.trader,
          body: { ...(await h.order(WALLET.mm, "ARG-WIN", ORDER)), nonce: "999999999" },
        }),
    ],
    [
      "market_not_open",
      409,
      "placement",
      async () =>
        h.fetch("/api/orders/place", {
          key: h.keys.trader,
          body: await h.order(WALLET.mm, "EXTRA-TIME", ORDER),
        }),
    ],
    [
      "insufficient_funds",
      201,
      "placement",
      async () =>
        h.fetch("/api/orders/place", {
          key: h.keys.multiKyc,
          wallet: WALLET.kyc,
          body: await h.order(WALLET.kyc, "ARG-WIN", { side: "sell", price: "0.5", quantity: "1" }),
        }),
    ],
    [
      "bad_request",
      400,
      "placement",
      () => h.fetch("/api/orders/place", { key: h.keys.trader, rawBody: "{" }),
    ],
  ];
  it.each(cases)("%s → %i in the %s envelope", async (code, status, envelope, send) => {
    const res = await send();
    expect(res.status).toBe(status);
    if (envelope === "bare") bare(res, code);
    else if (envelope === "nested") nested(res, code);
    else placement(res, code);
  });
});

describe("nested envelope: upstream failures, injected", () => {
  it.each([
    [503, "exchange_unavailable"],
    [502, "exchange_upstream_error"],
    [500, "exchange_upstream_error"],
  ] as const)("%i %s: nested, trace_id equal to X-Trace-Id, then normal service", async (status, code) => {
    h.ctx.faults.failNext = { count: 2, status, code, retryAfterSeconds: 0 };
    for (let i = 0; i < 2; i++) nested(await h.fetch("/api/markets"), code);
    expect((await h.fetch("/api/markets")).status).toBe(200);
  });

  it("an injected 429 carries Retry-After and rate_limited", async () => {
    h.ctx.faults.failNext = { count: 1, status: 429, code: "rate_limited", retryAfterSeconds: 7 };
    const res = await h.fetch("/api/me/balances", { key: h.keys.trader });
    nested(res, "rate_limited");
    expect(res.headers.get("retry-after")).toBe("7");
  });

  it("the client reads each envelope into one ExchangeError (code, status, trace id)", async () => {
    h.ctx.faults.failNext = { count: 1, status: 503, code: "exchange_unavailable", retryAfterSeconds: 0 };
    const err = await h
      .client()
      .me.balances()
      .then(
        () => undefined,
        (e: unknown) => e as { code: string; httpStatus: number; traceId: string; outcome: string },
      );
    expect(err).toMatchObject({ code: "exchange_unavailable", httpStatus: 503, outcome: "retryable" });
    expect(err?.traceId).toMatch(/.+/);
  });
});
