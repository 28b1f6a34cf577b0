import { describe, expect, it } from "vitest";
import { buyTenYes, twoMarkets, YES_WINS } from "./support/settlement.js";

/**
 * A market's settlement retires its books (the adapters unsubscribe them and the tracker stops
 * watching them: a resolved market's book is sent no more, and watched it went stale and was
 * resynced for ever). The engine says so once (`market_settled`), and settled is final: a later
 * status push that is not RESOLVED or VOIDED would have un-pinned the marks and lifted the gate over
 * books nobody watches any more, so it is logged and ignored.
 */
describe("settlement: the market's books retired", () => {
  it("is told once, with the market's tokens; a later OPEN is ignored (gated, marks pinned)", async () => {
    const { h, m1, yes1, no1, yes2 } = await twoMarkets();
    await buyTenYes(h, yes1);
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true }); // pushed, without payouts
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS); // the market_resolved push
    h.engine.onMarketStatus(m1, "VOIDED");
    await h.run(500);
    const told = h.eventsOf("market_settled").map((e) => ({ marketId: e.marketId, tokenIds: e.tokenIds }));
    expect(told).toEqual([{ marketId: m1, tokenIds: [yes1, no1] }]);
    const pnl = h.engine.status().pnlMicro;

    h.venue.setMarketStatus(m1, "OPEN"); // pushed: an exchange that took the resolution back
    h.crowdQuote(yes1, "0.30", "0.34"); // a book that moved: would re-mark the position if un-pinned
    await h.run(2_000);
    expect(h.logs.text()).toContain("market is settled: status OPEN ignored");
    expect(h.botQuotes(yes1)).toEqual([]);
    expect(h.botQuotes(no1)).toEqual([]);
    expect(h.engine.status().pnlMicro).toBe(pnl);
    expect(h.eventsOf("market_settled")).toHaveLength(1);
    expect(h.botQuotes(yes2).length).toBeGreaterThan(0);
  });
});
