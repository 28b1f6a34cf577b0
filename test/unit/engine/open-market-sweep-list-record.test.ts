import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { SWEEP_HOW } from "../../../src/engine/sweep-words.js";
import { Harness } from "./support/harness.js";

/*
 * Review (r2sweep): the sweep holds on the LIST's status, the closed-market watch reopens on the
 * RECORD's. When the two disagree (a list served stale after an unpause — a public, IP-limited
 * endpoint is the one most likely cached —, or any other list/record mismatch), nothing breaks the
 * tie: every period the sweep holds the market (market cancel-all, quotes pulled), a period later
 * the watch reads OPEN and reopens it (quotes placed again), and so on for as long as the list
 * lags: a cancel/replace cycle and two warn lines per period on a market that is OPEN. The record
 * is what the watch trusts to reopen; a list saying not-OPEN should be confirmed by the record
 * (GET /api/markets/{slug}, one read, only when the list says so) before the market is held.
 */

const RECHECK_MS = 5_000;
const PAUSED_LINE = `market is now PAUSED (its record, read ${SWEEP_HOW})`;

describe("review r2sweep: a list whose status disagrees with the record", () => {
  it("does not hold and reopen an OPEN market every period", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    // The list still says m1 is PAUSED; its record (and the venue) say OPEN.
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      h.venue
        .markets()
        .map((m) => ({ marketId: m.marketId, status: m.marketId === "m1" ? "PAUSED" : m.status }));
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => ({
      status: h.venue.market(marketId)?.status ?? "OPEN",
    });
    const [a] = h.tokens(1);
    const [b] = h.tokens(2);
    h.crowdQuote(a, "0.48", "0.52");
    h.crowdQuote(b, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(a)).toHaveLength(2);

    await h.run(12 * RECHECK_MS);
    const holds = h.logs
      .text()
      .split("\n")
      .filter((l) => l.includes(PAUSED_LINE)).length;
    // Before a fix: about one hold every two periods (6 here), each a market cancel-all and a re-place.
    expect(holds).toBeLessThanOrEqual(1);
    expect(h.botQuotes(a)).toHaveLength(2);
  });
});
