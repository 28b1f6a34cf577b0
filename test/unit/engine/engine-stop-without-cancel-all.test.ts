import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/**
 * shutdown() (engine-lifecycle.ts) cancels single orders only for the orders the engine holds `open`;
 * an `unknown` order (an ambiguous placement not yet resolved) is left to the wallet cancel-all. When
 * cancel-all is refused (501 "Feature disabled in this environment", which the queue supports), the
 * orders GET /api/orders/open still lists must be cancelled one by one.
 */
describe("engine lifecycle: stop when the exchange refuses cancel-all", () => {
  it("cancels, one by one, the orders GET /api/orders/open still lists", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.exchange.cancelAll = async () => {
      h.exchange.calls.push({ op: "cancel_all", atMs: h.clock.now(), arg: "refused" });
      throw new ExchangeError({
        code: "not_implemented",
        message: "Feature disabled",
        outcome: "rejected",
        endpoint: "POST /api/orders/cancel-all",
        httpStatus: 501,
      });
    };
    // The bid reaches the venue, its answer is lost: the engine holds it `unknown`.
    h.exchange.scriptPlace({ kind: "ambiguous_after" });
    await h.engine.start();
    await h.run(10); // before the debounced reconcile resolves it
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(
      h.engine
        .liveOrders()
        .map((o) => o.state)
        .sort(),
    ).toEqual(["open", "unknown"]);

    const stopping = h.engine.stop("sigterm", 5_000);
    await h.run(5_000);
    const r = await stopping;
    expect(h.botQuotes(yes)).toEqual([]);
    expect(r).toEqual({ openOrders: 0 });
  });
});
