import { describe, expect, it } from "vitest";
import { buyTenYes, twoMarkets, YES_WINS } from "./support/settlement.js";

/**
 * The journal keeps each market's settlement (status, and payouts once known) so that `mm paper`,
 * whose mock starts fresh each run, can settle a market an earlier run on the same journal saw
 * resolve: without it the fresh mock listed the market OPEN again, and the restored position was
 * marked at the mid instead of its payout. The engine says so (`market_settlement`) at the first
 * settlement, and again when its payouts become known; a repeat says nothing.
 */
describe("settlement: told with its payouts, for the journal", () => {
  it("is told at the settlement without payouts, then once its payouts come; not for a repeat", async () => {
    const { h, m1, yes1 } = await twoMarkets();
    await buyTenYes(h, yes1);
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true }); // pushed, without payouts
    await h.run(500);
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS); // the market_resolved push
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS); // a repeat
    await h.run(500);
    const told = h.eventsOf("market_settlement").map((e) => ({
      marketId: e.marketId,
      status: e.status,
      payouts: e.payouts,
    }));
    expect(told).toEqual([
      { marketId: m1, status: "RESOLVED", payouts: undefined },
      { marketId: m1, status: "RESOLVED", payouts: YES_WINS },
    ]);
  });

  it("is told once with the payouts when they come with the settlement", async () => {
    const { h, m1 } = await twoMarkets();
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    await h.run(500);
    expect(h.eventsOf("market_settlement").map((e) => [e.status, e.payouts])).toEqual([
      ["RESOLVED", YES_WINS],
    ]);
  });
});
