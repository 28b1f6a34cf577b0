import type { Clock } from "../../../src/core/clock.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import { ExchangeHttpClient, type ExchangeHttpClientOptions } from "../../../src/exchange/client.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { silentLogger, TEST_API_KEY } from "../../support/exchange-fixtures.js";
import type { TestServer } from "../../support/http-test-server.js";

/** A client against `server` with retries off unless asked for (most tests look at one attempt). */
export function clientFor(
  server: TestServer,
  extra: Partial<ExchangeHttpClientOptions> = {},
): ExchangeHttpClient {
  const clock: Clock = extra.clock ?? new LiveClock();
  return new ExchangeHttpClient({
    baseUrl: server.url,
    apiKey: TEST_API_KEY,
    clock,
    logger: silentLogger(),
    timeoutMs: 5_000,
    retry: { maxAttempts: 1 },
    ...extra,
  });
}

/** A syntactically valid placement body (the test server does not check signatures). */
export function placeRequest(overrides: Partial<PlaceOrderRequest> = {}): PlaceOrderRequest {
  return {
    marketId: "6f1c1a52-1111-4c53-9d59-0e3e8b6b2a01",
    side: "buy",
    outcome: "YES",
    price: "0.52",
    quantity: "10",
    nonce: "479249096354",
    expiry: 0,
    maker: "0x2222222222222222222222222222222222222222",
    signature: `0x${"11".repeat(65)}`,
    clientOrderId: "mm-a1-b0-1",
    ...overrides,
  };
}

/** Awaits `p` expecting an ExchangeError, and returns it. */
export async function exchangeError(p: Promise<unknown>): Promise<ExchangeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ExchangeError) return err;
    throw err;
  }
  throw new Error("expected an ExchangeError, the call succeeded");
}
