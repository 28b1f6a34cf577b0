import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { Harness } from "./support/harness.js";

/*
 * ops8 acceptance pass: a stop whose every read of the open orders failed logged "engine stopped: no
 * open orders" and exited 0 without the exchange having said so: the count was what mm believed
 * (README documents the fallback). It was right that time, but the log did not say it was unconfirmed.
 */
describe("engine stop when the exchange's open orders cannot be read", () => {
  it("says at warn that the count is mm's belief, not the exchange's", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run(100);
    const fault = (endpoint: string) =>
      new ExchangeError({
        code: "internal_error",
        message: "injected",
        outcome: "ambiguous",
        endpoint,
        httpStatus: 500,
      });
    h.exchange.cancelAll = async () => {
      throw fault("POST /api/orders/cancel-all");
    };
    h.exchange.openOrders = async () => {
      throw fault("GET /api/orders/open");
    };
    const stopping = h.engine.stop("sigterm", 5_000);
    await h.run(6_000);
    expect(await stopping).toEqual({ openOrders: 0, believed: true }); // the single cancels went through
    expect(h.botQuotes(yes)).toEqual([]);
    const warn = h.logs
      .records()
      .find((r) => String(r.msg).startsWith("shutdown: the exchange's open orders could not be read"));
    expect(warn).toMatchObject({ level: 40, believedOpen: 0 });
  });
});
