import { describe, expect, it } from "vitest";
import { errorFromResponse } from "../../../src/exchange/envelopes.js";
import type { TransportResponse } from "../../../src/exchange/transport.js";

// Regression (found by test/fuzz/exchange-bodies.test.ts): a bare envelope whose `code` was ""
// became an ExchangeError with code "", and an error body whose `message` was "" one with an
// empty message. Empty strings name nothing: they fall back like absent fields.
function response(status: number, body: unknown): TransportResponse {
  const text = JSON.stringify(body);
  return {
    endpoint: "GET /api/orders/open",
    status,
    headers: {},
    text,
    json: body,
    isJson: true,
    requestId: "req-9",
    traceId: undefined,
    apiVersion: undefined,
    serverTimeMs: undefined,
    rateLimit: undefined,
    retryAfterMs: undefined,
    sentAt: 0,
    receivedAt: 0,
    durationMs: 0,
  };
}

describe("error envelopes with empty fields", () => {
  it("a bare envelope with an empty code is an http_error, not an error coded ''", () => {
    const err = errorFromResponse(response(400, { code: "", message: "bad" }), { placement: false });
    expect(err?.code).toBe("http_error");
    expect(err?.message).toBe("bad");
    expect(err?.outcome).toBe("rejected");
  });

  it("a 2xx body that is only an empty-coded envelope is not a business reject", () => {
    expect(errorFromResponse(response(200, { code: "" }), { placement: false })).toBeUndefined();
  });

  it("an empty message falls back to a message naming the status", () => {
    const err = errorFromResponse(response(403, { code: [], message: "" }), { placement: false });
    expect(err?.code).toBe("http_error");
    expect(err?.message).toBe("HTTP 403 without an error code");
  });
});
