import { describe, expect, it } from "vitest";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import { Harness } from "./support/harness.js";

/**
 * A placement answered 429 goes back into the queue (it did not take effect) while the store holds it
 * as sent (`placing`, which blocks its level). If the queue then drops it unsent (shed under the
 * blocked budget, a kill-switch cancel-all), its outcome is the 429: the order ends `rejected`, the
 * journal and metrics see one answered placement (not an unsent drop), and the level is quoted again.
 */
describe("engine: a re-queued 429 placement that the queue then drops", () => {
  it("ends rejected when shed, and its level is quoted again", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // The next placement is answered 429 with Retry-After 2 s (the budget blocks past the shed horizon).
    const limited = limitNextPlacement(h, 2_000);
    h.crowdQuote(yes, "0.49", "0.53"); // mid 0.50 → 0.51: a one-tick (calm) requote of both levels
    await h.run();
    const coid = limited();
    expectOneRejectedAnswer(h, coid);
    expect(h.engine.liveOrders().some((o) => o.clientOrderId === coid)).toBe(false);

    // Long after the Retry-After, the market moves again: the bot has a bid again.
    await h.run(10_000);
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(10_000);
    expect(h.engine.liveOrders().filter((o) => o.state === "placing")).toEqual([]);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual(["buy 0.49 10"]);
  });

  it("ends rejected when a kill-switch cancel-all drops it, and the level is quoted after the unfreeze", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const limited = limitNextPlacement(h, 200); // short Retry-After: the re-queued placement is not shed
    h.crowdQuote(yes, "0.49", "0.53");
    await h.run();
    const coid = limited();
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === coid)?.state).toBe("placing");
    // While it waits in the queue, the platform freezes (wallet-wide cancel-all), then unfreezes.
    h.engine.onPlatformStatus(true);
    await h.run(1_000);
    expectOneRejectedAnswer(h, coid);
    h.engine.onPlatformStatus(false);
    await h.run(10_000);
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(10_000);
    expect(h.engine.liveOrders().filter((o) => o.state === "placing")).toEqual([]);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toHaveLength(1);
  });
});

/** Exactly one answer for the placement, the 429; no "never sent" drop for it. */
function expectOneRejectedAnswer(h: Harness, coid: string): void {
  const answers = h.eventsOf("place_outcome").filter((e) => e.intent.clientOrderId === coid);
  expect(answers.map((e) => [e.outcome, e.code])).toEqual([["rejected", "rate_limited"]]);
  expect(h.eventsOf("place_dropped").filter((e) => e.intent.clientOrderId === coid)).toEqual([]);
  expect(h.eventsOf("place_sent").filter((e) => e.clientOrderId === coid)).toHaveLength(1);
}

/**
 * Answers the next placement 429 with this Retry-After; later ones reach the venue.
 * @returns a function giving the clientOrderId it limited.
 */
function limitNextPlacement(h: Harness, retryAfterMs: number): () => string {
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
