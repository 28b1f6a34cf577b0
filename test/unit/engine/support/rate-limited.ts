import { expect } from "vitest";
import type { PlaceOrderRequest } from "../../../../src/core/types.js";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../../src/exchange/place-outcome.js";
import type { Harness } from "./harness.js";

/**
 * Answers the harness's next placement 429 with this Retry-After; later ones reach the venue.
 * @returns a function giving the clientOrderId it limited.
 */
export function limitNextPlacement(h: Harness, retryAfterMs: number): () => string {
  const inner = h.exchange.place.bind(h.exchange);
  let limited: string | undefined;
  h.exchange.place = (req: PlaceOrderRequest): Promise<PlaceOrderOutcome> => {
    if (limited !== undefined) return inner(req);
    limited = req.clientOrderId ?? "";
    const error = new ExchangeError({
      code: "rate_limited",
      message: "rate limited",
      outcome: "retryable",
      endpoint: "POST /api/orders/place",
      httpStatus: 429,
      retryAfterMs,
    });
    return Promise.resolve({ kind: "rejected", code: "rate_limited", retryable: true, error });
  };
  return () => {
    expect(limited).toBeDefined();
    return limited ?? "";
  };
}
