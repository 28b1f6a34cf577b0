import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { SWEEP_HOW } from "../../../src/engine/sweep-words.js";
import { Harness } from "./support/harness.js";
import { twoQuoted } from "./support/sweep-rig.js";

/*
 * A market paused with no lifecycle push (the spec: most are not yet emitted) on a book that never
 * moves. Before, mm learnt of a silent pause only from a placement refused `market_not_open`; with
 * nothing to requote it never placed there again, so its quotes rested at pre-pause prices through
 * the pause and were stale at the resume. The open-market sweep now reads the statuses of the quoted
 * markets every engine.marketRecheckMs (one GET /api/markets) and holds a market not OPEN as the
 * refusal's read does; the closed-market watch then reopens it.
 */

const RECHECK_MS = 5_000;
const PAUSED_LINE = `market is now PAUSED (its record, read ${SWEEP_HOW})`;

/** The venue's statuses, as GET /api/markets and GET /api/markets/{slug} would say them. */
function statusReads(h: Harness, listed: (marketId: string) => boolean = () => true) {
  const counts = { lists: 0, records: new Map<string, number>() };
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => {
    counts.lists++;
    return h.venue
      .markets()
      .filter((m) => listed(m.marketId))
      .map((m) => ({ marketId: m.marketId, status: m.status }));
  };
  h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
    counts.records.set(marketId, (counts.records.get(marketId) ?? 0) + 1);
    return { status: h.venue.market(marketId)?.status ?? "OPEN" };
  };
  return counts;
}

const refusals = (h: Harness) =>
  h.eventsOf("place_outcome").filter((e) => e.code === "market_not_open").length;

describe("open-market sweep: a quoted market paused silently on a static book", () => {
  it("is held within one engine.marketRecheckMs (quotes cancelled), and reopened after the resume", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const reads = statusReads(h);
    const { a, b } = await twoQuoted(h);
    h.silentStatus = true;
    h.venue.setMarketStatus("m1", "PAUSED");
    await h.run(RECHECK_MS);
    // Before: nothing read, nothing refused: the quotes rested on the paused market.
    expect(h.logs.text()).toContain(PAUSED_LINE);
    expect(h.botQuotes(a)).toEqual([]);
    expect(h.botQuotes(b)).toHaveLength(2);
    expect(refusals(h)).toBe(0);
    expect(h.logs.text()).not.toContain("error_rate_halt");
    // One list read a period covers both markets: no read by slug.
    expect(reads.lists).toBeGreaterThan(0);
    expect(reads.records.get("m2")).toBeUndefined();

    await h.run(3 * RECHECK_MS);
    expect(h.botQuotes(a)).toEqual([]);
    expect(reads.records.get("m1")).toBeGreaterThanOrEqual(2); // the closed-market watch
    h.venue.setMarketStatus("m1", "OPEN");
    await h.run(RECHECK_MS);
    expect(h.logs.text()).toContain("market is now OPEN (its record, read while it was closed)");
    expect(h.botQuotes(a)).toHaveLength(2);
    expect(refusals(h)).toBe(0);
  });

  it("reads a quoted market the list leaves out by its slug", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const reads = statusReads(h, (id) => id !== "m1");
    const { a } = await twoQuoted(h);
    await h.run(RECHECK_MS);
    expect(reads.records.get("m1")).toBe(1);
    expect(reads.records.get("m2")).toBeUndefined();
    h.silentStatus = true;
    h.venue.setMarketStatus("m1", "SUSPENDED");
    await h.run(RECHECK_MS);
    expect(h.logs.text()).toContain(`market is now SUSPENDED (its record, read ${SWEEP_HOW})`);
    expect(h.botQuotes(a)).toEqual([]);
  });

  it("drops an answer read across a status change (a push is newer)", async () => {
    const h = new Harness({ markets: 2, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    statusReads(h);
    let answer: ((l: ListedMarketStatus[]) => void) | undefined;
    h.exchange.listedMarkets = () =>
      new Promise((resolve) => {
        answer = resolve;
      });
    const { a } = await twoQuoted(h);
    await h.run(RECHECK_MS);
    expect(answer).toBeDefined();
    // Paused and resumed by pushes while the list read is out; the list was served in between.
    h.engine.onMarketStatus("m1", "PAUSED");
    h.engine.onMarketStatus("m1", "OPEN");
    await h.run(100);
    answer?.([
      { marketId: "m1", status: "PAUSED" },
      { marketId: "m2", status: "OPEN" },
    ]);
    await h.run(1_000);
    expect(h.logs.text()).not.toContain(PAUSED_LINE);
    expect(h.botQuotes(a)).toHaveLength(2);
  });
});
