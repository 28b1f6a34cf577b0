import { afterEach, describe, expect, it } from "vitest";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { clientFor, placeRequest } from "../../integration/exchange/helpers.js";
import { standardHeaders } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestHandler } from "../../support/http-test-server.js";

/**
 * Spec, Limits → Retry guidance 2: "On 5xx use exponential backoff … Do not auto-retry place-order".
 * Spec, Codes: `exchange_transport_error | 503 | Connection failed` — the gateway lost its connection to
 * the exchange service; nothing in the code says the order did not reach the matcher.
 *
 * mm used to classify this 503 as `rejected, retryable: true` ("definitely not done"): the queue sent
 * the placement again, or, when it did not, the next diff placed a fresh clientOrderId at the same
 * level — two orders resting if the first had reached the matcher, until a periodic reconcile cancelled
 * the orphan (found by review). It is ambiguous now, like a timeout or a 500/502: reconciled by its
 * clientOrderId, never resent.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(handler: TestHandler): Promise<ExchangeHttpClient> {
  const server = await startTestServer(handler);
  const client = clientFor(server);
  cleanups.push(async () => {
    client.close();
    await server.close();
  });
  return client;
}

describe("503 on POST /api/orders/place", () => {
  it("reports 503 exchange_transport_error on a placement as ambiguous, not as a definite (retryable) reject", async () => {
    const client = await setup((_r, res) =>
      sendJson(
        res,
        503,
        {
          status: 503,
          error: { code: "exchange_transport_error", message: "connection failed", trace_id: "t-1" },
        },
        standardHeaders("rq-503-transport"),
      ),
    );
    const out = await client.orders.place(placeRequest());
    // Today: { kind: "rejected", code: "exchange_transport_error", retryable: true } → re-sent / re-placed.
    expect(out.kind).toBe("ambiguous");
  });
});
