import { describe, expect, it } from "vitest";
import { NO_RESTORE } from "../../../src/engine/engine-deps.js";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { Harness } from "./support/harness.js";
import { logLines as lines, notFound } from "./support/sweep-rig.js";

/*
 * A market the open-market sweep's list shows by its id under a new slug takes it (the spec derives
 * slugs from titles), and the journal keeps it (`market_slug`). A list served stale after such a
 * rename (a cache, a lagging replica) shows the old slug again: taken on its word, the market went
 * back to a slug that is a 404 (its reads failing until the next list) and the journal recorded a
 * rename back that never was. A slug the market has left (this run, or an earlier one: the
 * journal's restore.slugsLeft) is taken again only once the market's record by it reads (with the
 * market's id): the market was really retitled back.
 */

const RECHECK_MS = 5_000;
const OLD_SLUG = "will-it-rain";
const NEW_SLUG = "will-it-rain-tomorrow";

/** The exchange of one market m1: the list shows it under `list.slug`; its record reads by `readable` only. */
function exchangeOf(h: Harness, list: { slug: string }, readable: Set<string>, reads: string[]): void {
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
    { marketId: "m1", slug: list.slug, status: "OPEN" },
  ];
  h.exchange.marketRecord = async ({ slug }): Promise<MarketRecordStatus> => {
    reads.push(slug ?? "");
    if (slug === undefined || !readable.has(slug)) throw notFound();
    return { status: "OPEN" };
  };
}

async function quoted(h: Harness): Promise<string> {
  const [a] = h.tokens(1);
  h.crowdQuote(a, "0.48", "0.52");
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes(a)).toHaveLength(2);
  return a;
}

/** m1's slug now: the last it took (the engine tells each, `market_slug`). */
const slugNow = (h: Harness) => h.eventsOf("market_slug").at(-1)?.slug;

const slugEvents = (h: Harness) => h.eventsOf("market_slug").map((e) => [e.previous, e.slug]);

describe("a market list showing a slug the market has left", () => {
  it("is taken as stale unless the record by that slug reads: no rename back on the list's word", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const list = { slug: OLD_SLUG };
    const readable = new Set([OLD_SLUG]);
    const reads: string[] = [];
    exchangeOf(h, list, readable, reads);
    const a = await quoted(h);
    await h.run(RECHECK_MS); // m1 learns OLD_SLUG
    list.slug = NEW_SLUG; // retitled: its old slug a 404 from now on
    readable.clear();
    readable.add(NEW_SLUG);
    await h.run(RECHECK_MS);
    expect(slugNow(h)).toBe(NEW_SLUG);

    list.slug = OLD_SLUG; // a stale list: the old slug again, its record by it still a 404
    await h.run(3 * RECHECK_MS);
    expect(slugNow(h)).toBe(NEW_SLUG);
    expect(slugEvents(h)).toEqual([
      [undefined, OLD_SLUG],
      [OLD_SLUG, NEW_SLUG],
    ]);
    expect(reads.filter((s) => s === OLD_SLUG).length).toBeGreaterThan(0); // its record was read by it
    expect(lines(h, "the list taken as stale").filter((l) => l.includes('"level":30'))).toHaveLength(1);
    expect(h.botQuotes(a)).toHaveLength(2); // the list's status (OPEN, by its id) still taken

    readable.add(OLD_SLUG); // retitled back for real: the record by the old slug reads (m1's id)
    readable.delete(NEW_SLUG);
    await h.run(RECHECK_MS);
    expect(slugNow(h)).toBe(OLD_SLUG);
    expect(slugEvents(h).at(-1)).toEqual([NEW_SLUG, OLD_SLUG]);
  });

  it("counts the slugs an earlier run saw the market leave (the journal's restore.slugsLeft)", async () => {
    const h = new Harness({
      markets: 1,
      latencyMs: 50,
      options: {
        marketRecheckMs: RECHECK_MS,
        restore: { ...NO_RESTORE, slugsLeft: new Map([["m1", [OLD_SLUG]]]) },
      },
    });
    const list = { slug: NEW_SLUG };
    const reads: string[] = [];
    exchangeOf(h, list, new Set([NEW_SLUG]), reads);
    await quoted(h);
    await h.run(RECHECK_MS);
    expect(slugNow(h)).toBe(NEW_SLUG);
    list.slug = OLD_SLUG; // a stale list after the restart
    await h.run(2 * RECHECK_MS);
    expect(slugNow(h)).toBe(NEW_SLUG);
    expect(slugEvents(h)).toEqual([[undefined, NEW_SLUG]]);
  });
});
