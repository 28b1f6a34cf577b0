import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/**
 * liveops review: a stop that meets a short burst of 5xx answers (the wallet cancel-all answered 500,
 * then GET /api/orders/open failing once) gives up at once and leaves every quote resting on the
 * exchange, although nearly all of shutdown.timeoutMs is left and the exchange answers again. Seen
 * live: `mm run` against `mm mock --admin`, `POST /__admin/fail-next {"count":5,"status":500}` then
 * SIGTERM with shutdown.timeoutMs 3000 → "shutdown: could not read the open orders", exit 1 after
 * ~0.8 s, orders still open on the mock. The engine holds every order id: it can cancel them one by
 * one (and read again) within the budget.
 */
describe("engine stop after a failed cancel-all and a failed open-orders read (liveops review)", () => {
  it("still cancels the quotes it knows, within the budget, once the exchange answers again", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run(100);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // A burst of 5xx during the stop: the first cancel-all and the first open-orders read fail.
    let cancelAllFaults = 1;
    let readFaults = 1;
    const realCancelAll = h.exchange.cancelAll.bind(h.exchange);
    const realOpen = h.exchange.openOrders.bind(h.exchange);
    const fault = (endpoint: string) =>
      new ExchangeError({
        code: "internal_error",
        message: "injected fault",
        outcome: "ambiguous",
        endpoint,
        httpStatus: 500,
      });
    h.exchange.cancelAll = async (marketId?: string) => {
      if (cancelAllFaults-- > 0) throw fault("POST /api/orders/cancel-all");
      return realCancelAll(marketId);
    };
    h.exchange.openOrders = async () => {
      if (readFaults-- > 0) throw fault("GET /api/orders/open");
      return realOpen();
    };

    const stopping = h.engine.stop("sigterm", 10_000);
    await h.run(10_000);
    const r = await stopping;
    // Before the fix (shutdown-sweep.ts): nothing cancelled, { openOrders: 2 }, both quotes resting.
    expect(h.botQuotes(yes)).toEqual([]);
    expect(r).toEqual({ openOrders: 0 });
  });
});
