import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { Harness } from "../engine/support/harness.js";
import { logLines as lines, notFound } from "../engine/support/sweep-rig.js";

/*
 * Review r2a (c51cc69): a market learns a new slug only from the open-market sweep's list, and the
 * sweep reads the list only while some market is held OPEN or NOT_FOUND. A bot quoting one market
 * (or every market closed) whose market is paused, then renamed while paused (the spec derives
 * slugs from titles), has its record read by the closed-market watch by the old slug: a 404,
 * counted as a failing read (the market is held PAUSED, not NOT_FOUND), for the run. The market's
 * opening is never seen (nothing else reads the list), and mm_market_status_reads_failing
 * {watch="closed"} stays 1 (a false MmMarketStatusReadsFailing). The same as the first round's
 * defect (a166c00), by a market held closed rather than NOT_FOUND.
 */

const RECHECK_MS = 5_000;
const OLD_SLUG = "will-it-rain";
const NEW_SLUG = "will-it-rain-tomorrow";

describe("review r2a: a market held PAUSED renamed while no market is OPEN", () => {
  it("is reopened once it opens under its new slug, with no failing status reads", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const state = { slug: OLD_SLUG, status: "OPEN" };
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
      { marketId: "m1", slug: state.slug, status: state.status },
    ];
    h.exchange.marketRecord = async ({ slug }): Promise<MarketRecordStatus> => {
      if (slug !== state.slug) throw notFound(); // the old slug is a 404 once renamed
      return { status: state.status };
    };
    const [a] = h.tokens(1);
    h.crowdQuote(a, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    await h.run(RECHECK_MS); // the list read: m1 learns OLD_SLUG
    expect(h.botQuotes(a)).toHaveLength(2);

    state.status = "PAUSED"; // a silent pause: the sweep's list and the record say so
    await h.run(2 * RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    expect(lines(h, "market is now PAUSED").length).toBeGreaterThan(0);

    state.slug = NEW_SLUG; // renamed while paused: its old slug a 404 from now on
    await h.run(4 * RECHECK_MS);
    state.status = "OPEN"; // opens under its new slug
    await h.run(6 * RECHECK_MS);

    const closedFailing = h
      .eventsOf("market_reads_failing")
      .filter((e) => e.watch === "closed")
      .map((e) => e.failing);
    expect(h.botQuotes(a)).toHaveLength(2); // never reopened: its record read by the old slug
    expect(closedFailing.filter((n) => n > 0)).toEqual([]);
  });
});
