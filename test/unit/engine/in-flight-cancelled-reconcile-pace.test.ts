import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { quotingAtCap } from "./support/cap-rig.js";

/** GET /api/me/trades answered 500 (an ambiguous failure that lasts). */
function tradesFailed(): ExchangeError {
  return new ExchangeError({
    code: "internal_error",
    message: "upstream failed",
    outcome: "ambiguous",
    endpoint: "GET /api/me/trades",
    httpStatus: 500,
  });
}

/*
 * An order answered cancelled keeps its remainder on its side until a reconcile has read the trades
 * (order-store-cancelled.ts), and a side it holds back asks for that reconcile soon. Each quoting
 * step asked again, and a trigger is never held back by the scheduler's failure backoff: with the
 * trade read failing, every book update brought a failing reconcile within the 250 ms debounce
 * (300 in two minutes here, each logged, each spending the order-read budget) where the backoff
 * runs a handful.
 */
describe("engine: a cancelled remainder held near a cap while the trade read keeps failing", () => {
  it("does not bring a reconcile on every quoting step past the failure backoff", async () => {
    const { h, yes } = await quotingAtCap();
    // The trade history stops answering, for good.
    h.exchange.trades = async () => {
      throw tradesFailed();
    };
    h.dropFills = true;
    h.crowdQuote(yes, "0.40", "0.52");
    await h.run(10);
    h.take(yes, "sell", "0.47", "6");
    await h.run(2_000);
    const before = h.exchange.of("open_orders").length;
    // A live book: the crowd's bid moves every 200 ms for two minutes.
    for (let i = 0; i < 600; i++) {
      h.crowdQuote(yes, i % 2 === 0 ? "0.41" : "0.40", "0.52");
      await h.run(200);
    }
    // A failing run backs off (2 s, 4 s, … up to the 30 s interval): a handful in two minutes, not
    // one per book update.
    expect(h.exchange.of("open_orders").length - before).toBeLessThan(12);
    // The trade history answers again: the next run reads the 6 and the bid is back beside them.
    delete (h.exchange as { trades?: unknown }).trades;
    h.crowdQuote(yes, "0.40", "0.52");
    await h.run(35_000);
    expect(h.engine.positionOf(yes)).toBe(6_000_000n);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual(["buy 0.43 4"]);
  }, 60_000);
});
