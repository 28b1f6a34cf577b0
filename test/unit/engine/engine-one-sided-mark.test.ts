import { describe, expect, it } from "vitest";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
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

  it("a bound the last mark already lies within leaves it; a one-sided book gives a token no first mark", async () => {
    const h = new Harness({ markets: 2 });
    const [yes] = h.tokens(1);
    const [other] = h.tokens(2);
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdOrder(other, "sell", "0.60", "100");
    await h.engine.start();
    await h.run();
    expect(h.engine.markOf(yes)).toBe(500_000);
    // Only asks and no mark yet: no mark (core/mark.ts); the first two-sided book gives the first.
    expect(h.engine.markOf(other)).toBeUndefined();
    // The bids pulled, the asks at 0.52 still: the mid 0.50 lies below them, and stays.
    for (const o of h.venue.openOrders(CROWD))
      if (o.tokenId === yes && o.side === "buy") h.venue.cancel(CROWD, o.id);
    await h.run(1_000);
    expect(h.venue.bookSnapshot(yes)?.bids).toEqual([]);
    expect(h.engine.markOf(yes)).toBe(500_000);
    // A bid shows on the other token: its first mark is that two-sided book's mid.
    h.crowdOrder(other, "buy", "0.40", "100");
    await h.run(1_000);
    expect(h.engine.markOf(other)).toBe(500_000);
  });
});

/*
 * A restored position's first mark of the run is no gain or loss of this run (shiftForFirstMark
 * moves the kill switch's peak by it), so a first mark taken from one side of the book bought the
 * kill switch nothing, while the step from that side to the first two-sided mid read as this run's
 * PnL: a lone ask above the later mid a false drawdown (a false, sticky trip), a lone bid below it a
 * false gain that wore down a carried drawdown (review22, rmark). A one-sided book now only bounds a
 * mark the token already has (core/mark.ts).
 */
describe("engine: a restored position's first mark is never from one side of the book", () => {
  it("a restored long whose first book is a lone ask at 0.80, then a bid 0.20 (mid 0.50 = cost): no drawdown, no trip", async () => {
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      options: {
        restore: {
          accounts: new Map([["11", applyTrade(EMPTY_ACCOUNT, "buy", 500_000, 10_000_000n)]]),
          orders: new Map(),
        },
      },
    });
    const [yes] = h.tokens();
    h.crowdOrder(yes, "sell", "0.80", "100");
    await h.engine.start();
    await h.run();
    // The thin market's crowd bids at 0.20: the first two-sided mid is 0.50, the long's cost.
    h.crowdOrder(yes, "buy", "0.20", "100");
    await h.run(1_000);
    expect(h.engine.markOf(yes)).toBe(500_000);
    // Nothing was lost this run: the market's price never moved, a bid merely appeared.
    expect(h.engine.status().drawdownMicro).toBe(0n);
    expect(h.engine.status().killSwitch).toBe(false);
  });

  it("a restored long with a carried drawdown of 0.8, the book rebuilt one order at a time (bid 0.48, then ask 0.52): the 0.8 stays used", async () => {
    // As engine-kill-switch-carry's first case: the harness's empty snapshot, then the crowd's bid
    // and ask as separate deltas (a thin book refilled after a restart).
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      options: {
        restore: {
          accounts: new Map([["11", applyTrade(EMPTY_ACCOUNT, "buy", 600_000, 10_000_000n)]]),
          orders: new Map(),
          carriedDrawdown: { drawdownMicro: 800_000n },
        },
      },
    });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.engine.markOf(yes)).toBe(500_000);
    // Had the lone bid 0.48 been the first mark, the rise to 0.50 would count as a 0.2 gain of this
    // run and the carried 0.8 read 0.6: a later fall of 0.35 would not trip a 1 USDC switch.
    expect(h.engine.status()).toMatchObject({
      killSwitch: false,
      pnlMicro: -1_000_000n,
      drawdownMicro: 800_000n,
    });
  });
});
