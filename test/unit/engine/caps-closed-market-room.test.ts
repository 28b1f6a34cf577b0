import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/core/clock.js";
import { Harness, T0 } from "./support/harness.js";

/**
 * The wallet's worst case (PositionBook: a running Σ of each token's cached worst case) must drop a
 * token's cancelled orders once their cancels are answered. A market that closes has its quotes
 * cancelled by its gated steps, and then never steps again: when the cache was re-read only on a
 * token's own step or a requote, not on a cancel's answer (here 100 ms after the venue acted), the
 * closed market's cancelled orders kept counting, and every other market's total.hard room stayed
 * that much smaller. The order store now reports every change of a token's orders.
 */
describe("caps: a closed market's cancelled orders stop counting against total.hard", () => {
  it("once market 1 has closed and its quotes are cancelled, market 2 gets the wallet's room", async () => {
    const risk = {
      inventory: { perMarket: { soft: "100", hard: "100" }, total: { soft: "15", hard: "15" } },
    };
    const h = new Harness({
      risk,
      latencyMs: 50,
      markets: 2,
      closesAt: (i) => (i === 1 ? T0 + 5_000 : T0 + 3_600_000),
    });
    // A cancel's HTTP answer comes back 100 ms after the venue acted (and pushed the book delta).
    const cancel = h.exchange.cancel.bind(h.exchange);
    h.exchange.cancel = async (orderId) => {
      const res = await cancel(orderId);
      await sleep(h.clock, 100);
      return res;
    };
    const [yes1, no1] = h.tokens(1);
    const [yes2, no2] = h.tokens(2);
    for (const t of [yes1, no1, yes2, no2]) h.crowdQuote(t, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    // Market 1 quoted first and took the whole 15.
    expect(h.botQuotes(yes1).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.botQuotes(no1).sort()).toEqual(["buy 0.47 5", "sell 0.53 5"]);
    expect(h.botQuotes(yes2)).toEqual([]);
    expect(h.botQuotes(no2)).toEqual([]);

    await h.run(5_000); // market 1 closes: its quotes are cancelled
    expect(h.botQuotes(yes1)).toEqual([]);
    expect(h.botQuotes(no1)).toEqual([]);
    await h.run(60_000); // two reconciles: nothing of ours rests in market 1, no position anywhere
    expect(h.engine.liveOrders().filter((o) => o.tokenId === yes1 || o.tokenId === no1)).toEqual([]);

    // YES2's book moves: the wallet holds nothing and rests nothing, so it has the whole 15.
    h.crowdQuote(yes2, "0.49", "0.53");
    await h.run(2_000);
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
  });
});
