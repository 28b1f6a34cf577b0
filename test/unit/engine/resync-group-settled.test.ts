import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * A market that settles while its books are out in a grouped resync (a link drop, their snapshots
 * not back yet): its books are retired (BookTracker.retire, as the adapters do on `market_settled`)
 * and will never be synced again. Kept in the episode, they were named 30 s later by a `books not
 * recovered` warn, and the episode never ended: a stale line about books nobody watches.
 */
describe("a settled market's books out in a grouped resync", () => {
  const lines = (h: Harness, prefix: string) =>
    h.logs.records().filter((r) => String(r.msg).startsWith(prefix) && Number(r.level) >= 30);

  it("leave the episode: no `books not recovered`, the others' recovery is told", async () => {
    const h = new Harness({ markets: 2 });
    for (let i = 1; i <= 2; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.48", "0.52");
    await h.engine.start();
    await h.run(100);
    const settled = h.tokens(1);
    for (const t of settled) h.withheld.add(t);
    for (const i of [1, 2]) for (const t of h.tokens(i)) h.tracker.expectSnapshot(t); // a link drop
    await h.run(1_000);
    expect(lines(h, "books resyncing")).toHaveLength(1);

    h.engine.onMarketStatus(h.markets[0]?.marketId ?? "", "RESOLVED");
    for (const e of h.eventsOf("market_settled")) for (const t of e.tokenIds) h.tracker.retire(t);
    await h.run(35_000);
    expect(lines(h, "books not recovered")).toEqual([]);
    expect(lines(h, "books recovered")).toHaveLength(1);
  });
});
