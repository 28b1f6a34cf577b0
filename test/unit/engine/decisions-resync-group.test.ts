import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * A dropped /ws/market link makes every book of it `resyncing` ("resubscribed", MarketDataFeed
 * calls tracker.expectSnapshot for each) in one synchronous loop. The operator reads that as one
 * warn line and the recovery as one info line; a book that does not come back within the bound is
 * named once, at warn. A single book's gap, outside or during such an episode, is still its own news.
 */
describe("resyncs of a whole connection are one episode in the log", () => {
  /** Info-and-above lines whose message starts with `prefix`. */
  const info = (h: Harness, prefix: string) =>
    h.logs.records().filter((r) => String(r.msg).startsWith(prefix) && Number(r.level) >= 30);

  async function started(): Promise<Harness> {
    const h = new Harness({ markets: 3 });
    for (let i = 1; i <= 3; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.48", "0.52");
    await h.engine.start();
    await h.run(100);
    expect(h.botQuotes().length).toBeGreaterThan(0);
    expect(info(h, "risk: ")).toEqual([]);
    return h;
  }

  /** What MarketDataFeed does on a link down: every book waits for the resubscribe's snapshot. */
  function linkDown(h: Harness): string[] {
    const all = [1, 2, 3].flatMap((i) => h.tokens(i));
    for (const t of all) h.tracker.expectSnapshot(t);
    return all;
  }

  it("one warn for the six books, one info when all are back, a late book named once", async () => {
    const h = await started();
    const [late] = h.tokens(3);
    h.withheld.add(late);
    const all = linkDown(h);
    await h.run(0);
    const warn = info(h, "books resyncing");
    expect(warn).toHaveLength(1);
    expect(warn[0]).toMatchObject({ level: 40, books: 6, status: "resyncing", reason: "resubscribed" });
    expect(warn[0]?.tokens).toEqual(all);

    // The snapshots are asked for after the tracker's timeout; five arrive, one is withheld.
    await h.run(12_000);
    expect(all.filter((t) => h.tracker.state(t)?.status === "synced")).toHaveLength(5);
    expect(info(h, "books recovered")).toHaveLength(0);
    await h.run(20_000);
    const notBack = info(h, "books not recovered");
    expect(notBack).toHaveLength(1);
    expect(notBack[0]).toMatchObject({ level: 40, books: 1, of: 6, tokens: [late] });
    await h.run(30_000);
    expect(info(h, "books not recovered")).toHaveLength(1); // once

    h.withheld.delete(late);
    await h.run(60_000);
    expect(h.tracker.state(late)?.status).toBe("synced");
    const back = info(h, "books recovered");
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ level: 30, books: 6 });
    expect(Number(back[0]?.durationMs)).toBeGreaterThan(32_000);
    // No per-token line at info: not the resync, not its end.
    expect(info(h, "risk: ")).toEqual([]);
    // The listener still saw every book's decision (metrics count them).
    const resyncing = h.eventsOf("decision").filter((e) => e.decision.reason === "book_resyncing");
    expect(new Set(resyncing.map((e) => e.decision.tokenId)).size).toBe(6);
    // And quoting resumed everywhere.
    for (const t of all) expect(h.botQuotes(t).length).toBeGreaterThan(0);
  });

  it("a gap on one book is logged on its own, once, and its recovery once, even during an episode", async () => {
    const h = await started();
    const [yes] = h.tokens(1);
    const gap = () => h.gap(yes);
    gap();
    await h.run(1_000);
    expect(h.tracker.state(yes)?.status).toBe("synced");
    expect(info(h, "risk: ").map((r) => [r.msg, r.tokenId])).toEqual([
      ["risk: book_resyncing", yes],
      ["risk: cleared", yes],
    ]);
    expect(info(h, "books ")).toEqual([]);

    // A link down whose episode stays open (one book withheld), then a gap on a book already back.
    const [, lateNo] = h.tokens(2);
    h.withheld.add(lateNo);
    linkDown(h);
    await h.run(12_000);
    expect(h.tracker.state(yes)?.status).toBe("synced");
    gap();
    await h.run(1_000);
    expect(info(h, "risk: ").map((r) => [r.msg, r.tokenId])).toEqual([
      ["risk: book_resyncing", yes],
      ["risk: cleared", yes],
      ["risk: book_resyncing", yes],
      ["risk: cleared", yes],
    ]);
    expect(info(h, "books resyncing")).toHaveLength(1);
    h.withheld.delete(lateNo);
    await h.run(40_000);
    expect(info(h, "books recovered")).toHaveLength(1);
  });

  it("a second link down after the recovery is a new episode", async () => {
    const h = await started();
    linkDown(h);
    await h.run(12_000);
    linkDown(h);
    await h.run(12_000);
    expect(info(h, "books resyncing")).toHaveLength(2);
    expect(info(h, "books recovered")).toHaveLength(2);
    expect(info(h, "risk: ")).toEqual([]);
  });
});
