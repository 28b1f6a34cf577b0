import { describe, expect, it } from "vitest";
import { CROWD, Harness } from "../engine/support/harness.js";

/*
 * Review (walkedge): a market collapsing to a one-sided book. The engine marks a token only at a
 * two-sided uncrossed mid (engine-tokens.ts observeBook): when every bid is gone and the only
 * offers sit at 0.02, a long position stays marked at the last mid (0.50). The PnL then says a
 * gain while the shares can be bought by anyone at 0.02, and the drawdown kill switch never sees
 * the loss until the market resolves — the risk limit does not hold exactly when a market runs to
 * its edge (a favourite collapsing towards 0, the book's bids pulled).
 *
 * Right behaviour pinned here: a long position is never valued above the best ask the market
 * offers (anyone can buy the share there), so the loss is seen and the kill switch (1 USDC) trips.
 */
describe("review walkedge: a long position when the book's bids vanish and the asks fall to 0.02", () => {
  it("is not marked above the best ask, and the drawdown kill switch trips", async () => {
    const h = new Harness({ risk: { killSwitch: { maxDrawdown: "1" } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes)).toContain("buy 0.47 10");
    // The crowd pulls its bid and dumps at 0.02: its ask sweeps our bid at 0.47 (we are long 10 at
    // 0.47), the rest of it rests at 0.02, and no bid is left in the book.
    for (const o of h.venue.openOrders(CROWD)) if (o.tokenId === yes) h.venue.cancel(CROWD, o.id);
    h.crowdOrder(yes, "sell", "0.02", "100");
    await h.run(1_000);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    const book = h.venue.bookSnapshot(yes);
    expect(book?.bids.length).toBe(0);
    // A share anyone can buy at 0.02 is not worth 0.50 to the PnL.
    const mark = h.engine.markOf(yes);
    expect(mark === undefined || mark <= 20_000).toBe(true);
    // 10 shares bought at 0.47, worth at most 0.02 each: at least 4.5 USDC down, beyond the 1 USDC limit.
    expect(h.engine.status().pnlMicro).toBeLessThanOrEqual(-4_500_000n);
    expect(h.engine.status().killSwitch).toBe(true);
  });
});
