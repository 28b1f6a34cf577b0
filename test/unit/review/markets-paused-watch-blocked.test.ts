import { describe, expect, it } from "vitest";
import { CLOSED_MARKET_READ_MS } from "../../../src/engine/closed-market-watch.js";
import { MARKET_REFUSED_COOLDOWN_MS } from "../../../src/engine/market-refusals.js";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { CROWD, Harness } from "../engine/support/harness.js";

/*
 * review18 r2-exec. d09b583 hands a market paused silently to the closed-market watch for good (its
 * refusal cool-down is cancelled: refusals.pushed(PAUSED)), and only the watch's record read can
 * reopen it. But a watch round ends at its first failed read, and reads go in the same order each
 * round: one closed market whose record cannot be read (listed PRE_MARKET at start, its
 * GET /api/markets/{slug} failing — a 404 for a market not yet public, a slug the record endpoint
 * does not know) starves every market after it. Before d09b583 the paused market was probed at each
 * cool-down's end and came back when resumed; now it stays dark for the whole run.
 */
describe("a market paused silently behind a closed market whose record cannot be read", () => {
  it("is still reopened when it resumes", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, status: (i) => (i === 1 ? "PRE_MARKET" : "OPEN") });
    const [b] = h.tokens(2);
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
      if (marketId === "m1") throw new Error("GET /api/markets/{slug}: 404 market_not_found");
      return { status: h.venue.market(marketId)?.status ?? "OPEN" };
    };
    h.crowdQuote(b, "0.48", "0.52");
    for (const p of ["0.47", "0.46", "0.45", "0.44"]) h.crowdOrder(b, "buy", p);
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(b)).toHaveLength(2);

    // m2 paused without a push; a requote is refused, its record says PAUSED.
    h.silentStatus = true;
    h.venue.setMarketStatus("m2", "PAUSED");
    const best = h.venue
      .openOrders(CROWD)
      .filter((o) => o.tokenId === b && o.side === "buy")
      .sort((x, y) => Number(y.price - x.price))[0];
    if (best !== undefined) h.venue.cancel(CROWD, best.id);
    await h.run(1_000);
    expect(h.logs.text()).toContain("market is now PAUSED (its record, read after the refusal)");

    // Resumed silently; several watch periods and cool-downs pass.
    h.venue.setMarketStatus("m2", "OPEN");
    await h.run(5 * Math.max(CLOSED_MARKET_READ_MS, MARKET_REFUSED_COOLDOWN_MS));
    // Fails: every round reads m1 first, fails, and ends before m2.
    expect(h.botQuotes(b)).toHaveLength(2);
  });
});
