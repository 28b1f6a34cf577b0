import { describe, expect, it } from "vitest";
import { CLOSED_MARKET_READ_MS } from "../../../src/engine/closed-market-watch.js";
import { MARKET_REFUSED_COOLDOWN_MS } from "../../../src/engine/market-refusals.js";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { CROWD, Harness } from "./support/harness.js";

/*
 * review18 r2-exec. A market paused silently is handed to the closed-market watch for good (its
 * refusal cool-down is cancelled), and only the watch's record read reopens it. A watch round ends at
 * its first failed read, and each round read the markets in the same order: one closed market whose
 * record never reads (listed PRE_MARKET, its GET /api/markets/{slug} a 404 for a market not yet
 * public) starved every market after it for the whole run. A market whose read failed is now read
 * after the others.
 */
describe("closed-market watch: markets whose record never reads", () => {
  it("do not keep the closed markets after them unread: one opening silently and one paused silently are both reopened", async () => {
    // m1, m2: PRE_MARKET, records unreadable; m3: PRE_MARKET, opens silently; m4: open, paused silently.
    const h = new Harness({ markets: 4, latencyMs: 50, status: (i) => (i <= 3 ? "PRE_MARKET" : "OPEN") });
    h.silentStatus = true;
    const reads = new Map<string, number>();
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
      reads.set(marketId, (reads.get(marketId) ?? 0) + 1);
      if (marketId === "m1" || marketId === "m2")
        throw new Error("GET /api/markets/{slug}: 404 market_not_found");
      return { status: h.venue.market(marketId)?.status ?? "OPEN" };
    };
    const [c] = h.tokens(3);
    const [d] = h.tokens(4);
    h.crowdQuote(d, "0.48", "0.52");
    for (const p of ["0.47", "0.46", "0.45", "0.44"]) h.crowdOrder(d, "buy", p);
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(d)).toHaveLength(2);
    expect(h.botQuotes(c)).toEqual([]);

    // m4 paused without a push; a requote is refused, its record says PAUSED.
    h.venue.setMarketStatus("m4", "PAUSED");
    const best = h.venue
      .openOrders(CROWD)
      .filter((o) => o.tokenId === d && o.side === "buy")
      .sort((x, y) => Number(y.price - x.price))[0];
    if (best !== undefined) h.venue.cancel(CROWD, best.id);
    await h.run(1_000);
    expect(h.logs.text()).toContain("market is now PAUSED (its record, read after the refusal)");
    expect(h.botQuotes(d)).toEqual([]);

    // Both resume silently; several watch periods and cool-downs pass.
    h.venue.setMarketStatus("m3", "OPEN");
    h.crowdQuote(c, "0.48", "0.52");
    h.venue.setMarketStatus("m4", "OPEN");
    await h.run(6 * Math.max(CLOSED_MARKET_READ_MS, MARKET_REFUSED_COOLDOWN_MS));
    // Before: every round read m1 first, failed, and ended there; m3 and m4 were never read.
    expect(h.botQuotes(c)).toHaveLength(2);
    expect(h.botQuotes(d)).toHaveLength(2);
    // Still one failed read a round at most: the unreadable ones take turns.
    expect(reads.get("m1")).toBeGreaterThan(0);
    expect(reads.get("m2")).toBeGreaterThan(0);
  });
});
