import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import { Harness } from "./harness.js";

/*
 * Faults of the reconcile tests (reconcile-*.test.ts, the execution reconcile tests on the
 * Harness): the refusals and lost answers they inject, and the set-ups several of them share.
 */

/** GET /api/me/positions refused 401 wallet_mismatch: a reconcile failure that lasts. */
export function positionsRefused(): ExchangeError {
  return new ExchangeError({
    code: "wallet_mismatch",
    message: "signer is not the wallet",
    outcome: "rejected",
    endpoint: "GET /api/me/positions",
    httpStatus: 401,
  });
}

/** A request to `endpoint` whose answer was lost (a timeout): it may have been applied. */
export function answerLost(endpoint: string): ExchangeError {
  return new ExchangeError({
    code: "request_timeout",
    message: "no answer within the timeout",
    outcome: "ambiguous",
    endpoint,
  });
}

/** The order-history search (GET /api/orders/history) answered 500: an ambiguous failure. */
export function historySearchFailed(): ExchangeError {
  return new ExchangeError({
    code: "internal_error",
    message: "upstream failed",
    outcome: "ambiguous",
    endpoint: "GET /api/orders/history",
    httpStatus: 500,
  });
}

/**
 * A started Harness (reconcile every 30 s, follow-ups 2 s) quoting its first token `a`, whose
 * positions read is refused for good from 1 s on, run 5 minutes: the failure streak has backed off
 * to the periodic pace.
 */
export async function lastingPositionsFailure(): Promise<{ h: Harness; a: string }> {
  const h = new Harness();
  const [a] = h.tokens();
  h.crowdQuote(a, "0.48", "0.52");
  await h.engine.start();
  await h.run(1_000);
  h.exchange.positionsAt = async () => {
    throw positionsRefused();
  };
  await h.run(5 * 60_000);
  return { h, a };
}

/**
 * The next cancel reaches the venue (the order is cancelled there) but its answer is lost, and the
 * next `lookups` GET /api/orders/{id} of that order fail (answers lost too); then `a` is requoted so
 * that its resting quotes are cancelled. Runs until mm sees the order end, 60 s at most. Resolves to
 * when the order went into doubt, when mm saw it end (undefined: not within 60 s), and how many of
 * the failing lookups were not asked.
 */
export async function cancelInDoubt(h: Harness, a: string, lookups: number) {
  const cancel = h.exchange.cancel.bind(h.exchange);
  let doubted: string | undefined;
  h.exchange.cancel = async (orderId) => {
    if (doubted !== undefined) return cancel(orderId);
    doubted = orderId;
    await cancel(orderId);
    throw answerLost("POST /api/orders/cancel");
  };
  const order = h.exchange.order.bind(h.exchange);
  let failing = lookups;
  h.exchange.order = async (orderId) => {
    if (orderId === doubted && failing > 0) {
      failing--;
      throw answerLost("GET /api/orders/{id}");
    }
    return order(orderId);
  };
  h.crowdQuote(a, "0.46", "0.50"); // a requote: the resting quotes are cancelled
  const held = () => h.engine.liveOrders().some((o) => o.orderId !== undefined && o.orderId === doubted);
  let seenAt: number | undefined;
  let endedAt: number | undefined;
  for (let i = 0; i < 600 && endedAt === undefined; i++) {
    await h.run(100);
    if (seenAt === undefined && doubted !== undefined && held()) seenAt = h.clock.now();
    else if (seenAt !== undefined && !held()) endedAt = h.clock.now();
  }
  return { seenAt, endedAt, lookupsLeft: failing };
}
