import { describe, expect, it } from "vitest";
import { CROWD, Harness } from "./support/harness.js";

/*
 * A market collapsing to a one-sided book (review22, walkedge). The engine marked a token only at a
 * two-sided uncrossed mid: when every bid was gone and the only offers sat at 0.02, a long position
 * stayed marked at the last mid (0.50), the PnL said a gain while anyone could buy the shares at 0.02,
 * and the drawdown kill switch never saw the loss until the market resolved. The mark is now bounded
 * by the side that is left (core/mark.ts markAfterBook2): never above the best ask, never below the
 * best bid, whichever way the position lies.
 */
describe("engine marks on a one-sided book", () => {
  it("a long position when the bids vanish and the asks fall to 0.02: marked at the ask, the kill switch trips", async () => {
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

  it("a short position when the asks vanish and the bids rise to 0.98: marked at the bid, the kill switch trips", async () => {
    const h = new Harness({ risk: { killSwitch: { maxDrawdown: "1" } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes)).toContain("sell 0.53 10");
    // The crowd pulls its ask and buys at 0.98: its bid takes our ask at 0.53 (we are short 10 from
    // the start's holdings), the rest rests at 0.98, and no ask of the crowd is left.
    for (const o of h.venue.openOrders(CROWD)) if (o.tokenId === yes) h.venue.cancel(CROWD, o.id);
    h.crowdOrder(yes, "buy", "0.98", "100");
    await h.run(1_000);
    expect(h.engine.positionOf(yes)).toBe(-10_000_000n);
    // Buying the 10 back costs at least 0.98 each: 4.5 USDC down.
    expect(h.engine.markOf(yes)).toBe(980_000);
    expect(h.engine.status().pnlMicro).toBeLessThanOrEqual(-4_500_000n);
    expect(h.engine.status().killSwitch).toBe(true);
  });

  it("a bound the last mark already lies within leaves it; a token's first mark from one side is that side", async () => {
    const h = new Harness({ markets: 2 });
    const [yes] = h.tokens(1);
    const [other] = h.tokens(2);
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdOrder(other, "sell", "0.60", "100");
    await h.engine.start();
    await h.run();
    expect(h.engine.markOf(yes)).toBe(500_000);
    expect(h.engine.markOf(other)).toBe(600_000);
    // The bids pulled, the asks at 0.52 still: the mid 0.50 lies below them, and stays.
    for (const o of h.venue.openOrders(CROWD))
      if (o.tokenId === yes && o.side === "buy") h.venue.cancel(CROWD, o.id);
    await h.run(1_000);
    expect(h.venue.bookSnapshot(yes)?.bids).toEqual([]);
    expect(h.engine.markOf(yes)).toBe(500_000);
  });
});
