import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { EXCHANGE_CODES, isExchangeCode } from "../../../src/exchange/codes.js";
import { sampleMarket, sampleWithdrawal, standardHeaders } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor, exchangeError, placeRequest } from "./helpers.js";

let server: TestServer;
let client: ExchangeHttpClient;

beforeAll(async () => {
  server = await startTestServer();
  client = clientFor(server);
});
afterAll(async () => {
  client.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

describe("placement envelope (POST /api/orders/place, HTTP 201)", () => {
  it("turns status REJECTED with code and message into a definite reject carrying X-Request-Id", async () => {
    server.setHandler((_req, res) =>
      sendJson(
        res,
        201,
        {
          orderId: "",
          status: "REJECTED",
          filledQty: "0",
          remainingQty: "10",
          trades: [],
          code: "insufficient_funds",
          message: "balance too low",
        },
        standardHeaders("req-place-1"),
      ),
    );
    const out = await client.orders.place(placeRequest());
    expect(out.kind).toBe("rejected");
    if (out.kind !== "rejected") return;
    expect(out).toMatchObject({ code: "insufficient_funds", retryable: false });
    expect(out.error).toMatchObject({
      code: "insufficient_funds",
      message: "balance too low",
      httpStatus: 201,
      requestId: "req-place-1",
      outcome: "rejected",
      endpoint: "POST /api/orders/place",
    });
  });

  it("reads a 400 in the placement shape with its diagnostic details", async () => {
    const details = {
      recovered: "0x9999999999999999999999999999999999999999",
      expected_signer: "0x1111111111111111111111111111111111111111",
      platform_canonical_struct: { feeRateBps: "100" },
    };
    server.setHandler((_req, res) =>
      sendJson(
        res,
        400,
        { orderId: "", status: "REJECTED", code: "bad_signature", message: "recovery failed", details },
        standardHeaders("req-sig"),
      ),
    );
    const out = await client.orders.place(placeRequest());
    expect(out).toMatchObject({ kind: "rejected", code: "bad_signature", retryable: false });
    if (out.kind === "rejected") expect(out.error.details).toMatchObject(details);
  });

  it("returns accepted placements with the result and request id", async () => {
    server.setHandler((_req, res) =>
      sendJson(
        res,
        201,
        { orderId: "ord-9", status: "PARTIAL", filledQty: "4", remainingQty: "6", trades: [{ id: "t1" }] },
        standardHeaders("req-ok"),
      ),
    );
    const out = await client.orders.place(placeRequest());
    expect(out).toEqual({
      kind: "accepted",
      requestId: "req-ok",
      result: {
        orderId: "ord-9",
        status: "PARTIAL",
        filledQty: "4",
        remainingQty: "6",
        trades: [{ id: "t1" }],
      },
    });
  });

  it("treats an accepted status with an empty orderId as malformed (ambiguous: the order may exist)", async () => {
    server.setHandler((_req, res) =>
      sendJson(res, 201, { orderId: "", status: "OPEN", filledQty: "0", remainingQty: "1", trades: [] }),
    );
    const out = await client.orders.place(placeRequest());
    expect(out).toMatchObject({ kind: "ambiguous", error: { code: "malformed_response", httpStatus: 201 } });
  });
});

describe("nested envelope", () => {
  it("reads {status, error: {code, message, trace_id, details}} and X-Trace-Id", async () => {
    server.setHandler((_req, res) =>
      sendJson(
        res,
        503,
        {
          status: 503,
          error: {
            code: "exchange_unavailable",
            message: "matcher down",
            trace_id: "tr-77",
            details: { upstream: { status: 502, body: "bad gateway" } },
          },
        },
        { ...standardHeaders("req-n1"), "x-trace-id": "tr-77" },
      ),
    );
    const err = await exchangeError(client.orders.open());
    expect(err).toMatchObject({
      code: "exchange_unavailable",
      message: "matcher down",
      httpStatus: 503,
      requestId: "req-n1",
      traceId: "tr-77",
      outcome: "retryable",
      endpoint: "GET /api/orders/open",
    });
    expect(err.details).toEqual({ upstream: { status: 502, body: "bad gateway" } });
  });

  it("takes the trace id from X-Trace-Id when the body lacks it", async () => {
    server.setHandler((_req, res) =>
      sendJson(
        res,
        429,
        { status: 429, error: { code: "rate_limited", message: "slow down" } },
        { "x-trace-id": "tr-hdr", "retry-after": "1" },
      ),
    );
    const err = await exchangeError(client.markets.list());
    expect(err).toMatchObject({
      code: "rate_limited",
      traceId: "tr-hdr",
      outcome: "retryable",
      retryAfterMs: 1_000,
    });
  });

  it("reads a nested reject inside a 200 body on a non-placement path", async () => {
    server.setHandler((_req, res) =>
      sendJson(
        res,
        200,
        { status: 200, error: { code: "wallet_banned", message: "banned", trace_id: "tr-b" } },
        standardHeaders("req-200"),
      ),
    );
    const err = await exchangeError(
      client.withdrawals.request({
        amount: "1",
        destination: "0x3333333333333333333333333333333333333333",
        signature: "0x00",
      }),
    );
    expect(err).toMatchObject({
      code: "wallet_banned",
      httpStatus: 200,
      outcome: "rejected",
      traceId: "tr-b",
      requestId: "req-200",
    });
  });
});

describe("bare envelope", () => {
  it("reads {code, message, details}", async () => {
    server.setHandler((_req, res) =>
      sendJson(
        res,
        409,
        { code: "not_cancellable", message: "already filled", details: { status: "FILLED" } },
        standardHeaders("req-b1"),
      ),
    );
    const err = await exchangeError(client.orders.cancel("ord-1"));
    expect(err).toMatchObject({
      code: "not_cancellable",
      httpStatus: 409,
      outcome: "rejected",
      requestId: "req-b1",
    });
    expect(err.details).toEqual({ status: "FILLED" });
  });

  it("keeps fields beside the envelope (api_key_scope_missing: requiredScope, have[])", async () => {
    server.setHandler((_req, res) =>
      sendJson(res, 403, {
        code: "api_key_scope_missing",
        message: "scope",
        requiredScope: "orders:write",
        have: ["markets:read"],
      }),
    );
    const err = await exchangeError(client.orders.cancelAll());
    expect(err.details).toEqual({ requiredScope: "orders:write", have: ["markets:read"] });
  });

  it("reads withdrawal 200-envelope rejects, and returns new_destination_edd beside a created record", async () => {
    server.setHandler((_req, res) =>
      sendJson(res, 200, { code: "aml_blocked", message: "screening failed", reason: "sanctions" }),
    );
    const body = {
      amount: "10",
      destination: "0x3333333333333333333333333333333333333333",
      signature: "0x00",
    };
    const err = await exchangeError(client.withdrawals.request(body));
    expect(err).toMatchObject({ code: "aml_blocked", outcome: "rejected", details: { reason: "sanctions" } });

    server.setHandler((_req, res) =>
      sendJson(res, 201, { ...sampleWithdrawal({ status: "MLRO_REVIEW" }), code: "new_destination_edd" }),
    );
    const ok = await client.withdrawals.request(body);
    expect(ok.code).toBe("new_destination_edd");
    expect(ok.withdrawal.status).toBe("MLRO_REVIEW");
  });
});

describe("unreadable bodies", () => {
  it("gives http_error for an error status with a non-JSON body, keeping a snippet", async () => {
    server.setHandler((_req, res) =>
      sendJson(res, 502, "<html>Bad Gateway</html>", standardHeaders("req-html")),
    );
    const err = await exchangeError(client.markets.get("x"));
    expect(err).toMatchObject({
      code: "http_error",
      httpStatus: 502,
      outcome: "ambiguous",
      requestId: "req-html",
    });
    expect(err.details.body).toContain("Bad Gateway");
  });

  it("gives malformed_response for a 200 that is not JSON or does not fit the record", async () => {
    server.setHandler((_req, res) => sendJson(res, 200, "ok", standardHeaders("req-txt")));
    expect(await exchangeError(client.markets.get("x"))).toMatchObject({
      code: "malformed_response",
      requestId: "req-txt",
    });

    server.setHandler((_req, res) =>
      sendJson(res, 200, sampleMarket({ slug: 42 }), standardHeaders("req-shape")),
    );
    const err = await exchangeError(client.markets.get("x"));
    expect(err).toMatchObject({
      code: "malformed_response",
      httpStatus: 200,
      requestId: "req-shape",
      details: { field: "GET /api/markets/{slug}.slug" },
    });
  });

  it("falls back to http_error for a JSON error body without a code, keeping its message", async () => {
    server.setHandler((_req, res) => sendJson(res, 418, { message: "teapot" }));
    expect(await exchangeError(client.platform.status())).toMatchObject({
      code: "http_error",
      message: "teapot",
      httpStatus: 418,
    });
  });
});

describe("codes", () => {
  it("parses every documented code into its typed code, in all three envelopes", async () => {
    for (const code of EXCHANGE_CODES) {
      server.setHandler((_req, res) =>
        sendJson(res, 400, { status: 400, error: { code, message: code, trace_id: "t" } }),
      );
      expect((await exchangeError(client.orders.get("o"))).code).toBe(code);
      server.setHandler((_req, res) => sendJson(res, 409, { code, message: code }));
      expect((await exchangeError(client.orders.get("o"))).code).toBe(code);
      server.setHandler((_req, res) =>
        sendJson(res, 201, {
          orderId: "",
          status: "REJECTED",
          filledQty: "0",
          remainingQty: "1",
          trades: [],
          code,
          message: code,
        }),
      );
      const out = await client.orders.place(placeRequest());
      expect(out.kind === "rejected" && out.code).toBe(code);
      expect(isExchangeCode(code)).toBe(true);
    }
    expect(server.requests).toHaveLength(EXCHANGE_CODES.length * 3);
  });

  it("lets an unknown code survive as a string", async () => {
    server.setHandler((_req, res) =>
      sendJson(res, 400, { status: 400, error: { code: "quantum_flux", message: "new", trace_id: "t" } }),
    );
    const err = await exchangeError(client.orders.get("o"));
    expect(err.code).toBe("quantum_flux");
    expect(isExchangeCode(err.code)).toBe(false);
  });
});
