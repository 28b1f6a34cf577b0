import { describe, expect, it } from "vitest";
import type { ListedMarketStatus, MarketRecordStatus } from "../../../src/engine/ports.js";
import { OtherMarketRecord } from "../../../src/engine/read-failures.js";
import { LIST_WORD } from "../../../src/engine/sweep-words.js";
import { Harness } from "./support/harness.js";
import { logLines as lines, notFound } from "./support/sweep-rig.js";

/*
 * A market learns a new slug only from the open-market sweep's list, which the sweep read only
 * while some market was held OPEN or NOT_FOUND. A bot quoting one market (or every market closed)
 * whose market was paused, then renamed while paused (the spec derives slugs from titles), had its
 * record read by the closed-market watch by the old slug: a 404, counted as a failing read (the
 * market is held PAUSED, not NOT_FOUND), for the run. The market's opening was never seen, and
 * mm_market_status_reads_failing{watch="closed"} stayed 1 (a false MmMarketStatusReadsFailing).
 * Now such a 404 has the sweep read the list for the market: it learns the new slug; not a failing
 * read until the list has answered. (Review r2a of c51cc69.)
 */

const RECHECK_MS = 5_000;
const OLD_SLUG = "will-it-rain";
const NEW_SLUG = "will-it-rain-tomorrow";

const closedGauge = (h: Harness): number[] =>
  h
    .eventsOf("market_reads_failing")
    .filter((e) => e.watch === "closed")
    .map((e) => e.failing);

const openGauge = (h: Harness): number[] =>
  h
    .eventsOf("market_reads_failing")
    .filter((e) => e.watch === "open")
    .map((e) => e.failing);

/** One market quoted, paused silently, renamed while paused, then opened under its new slug. */
async function renamedWhilePaused(h: Harness, oldSlugAnswer: () => Error): Promise<string> {
  const state = { slug: OLD_SLUG, status: "OPEN" };
  h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
    { marketId: "m1", slug: state.slug, status: state.status },
  ];
  h.exchange.marketRecord = async ({ slug }): Promise<MarketRecordStatus> => {
    if (slug !== state.slug) throw oldSlugAnswer(); // the old slug is a 404 once renamed
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
  return a;
}

/** One market listed PAUSED or RESOLVED at start (venue status pushes silent), the engine started. */
async function closedAtStart(h: Harness): Promise<void> {
  h.silentStatus = true;
  const starting = h.engine.start();
  await h.run(500);
  await starting;
  expect(h.botQuotes()).toEqual([]);
}

const rig = (status: "PAUSED" | "RESOLVED"): Harness =>
  new Harness({ markets: 1, latencyMs: 50, status: () => status, options: { marketRecheckMs: RECHECK_MS } });

describe("a market held closed whose record is not found by its slug", () => {
  it("renamed while PAUSED, no market OPEN: reopened under its new slug, no failing status reads", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const a = await renamedWhilePaused(h, notFound);
    expect(h.botQuotes(a)).toHaveLength(2); // was never reopened: its record read by the old slug
    expect(closedGauge(h).filter((n) => n > 0)).toEqual([]);
    expect(lines(h, "under a new slug").some((l) => l.includes(NEW_SLUG))).toBe(true);
  });

  it("renamed while PAUSED, its old slug now another market's: the same", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const a = await renamedWhilePaused(h, () => new OtherMarketRecord("m1", OLD_SLUG, "m9"));
    expect(h.botQuotes(a)).toHaveLength(2);
    expect(closedGauge(h).filter((n) => n > 0)).toEqual([]);
  });

  it("not in the list either: held NOT_FOUND (not a failing read), reopened once listed OPEN and its record agrees", async () => {
    const h = rig("PAUSED");
    const listed: { current: ListedMarketStatus | undefined } = { current: undefined };
    const record: { bySlug: string | undefined } = { bySlug: undefined };
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      listed.current === undefined ? [] : [listed.current];
    h.exchange.marketRecord = async ({ slug }): Promise<MarketRecordStatus> => {
      if (slug === undefined || slug !== record.bySlug) throw notFound();
      return { status: "OPEN" };
    };
    await closedAtStart(h);

    await h.run(4 * RECHECK_MS);
    expect(lines(h, `market is now NOT_FOUND (${LIST_WORD.closedNotFound})`)).toHaveLength(1);
    expect(closedGauge(h).filter((n) => n > 0)).toEqual([]);

    // Held NOT_FOUND, the sweep reads the list for it: shown OPEN by its id under a new slug, its
    // record there still a 404. Held closed before it became NOT_FOUND: the list alone does not
    // reopen it (a list served from before a pause would reopen it into the pause).
    listed.current = { marketId: "m1", slug: NEW_SLUG, status: "OPEN" };
    h.venue.setMarketStatus("m1", "OPEN");
    for (const t of h.tokens()) h.crowdQuote(t, "0.48", "0.52");
    await h.run(3 * RECHECK_MS);
    expect(h.botQuotes()).toEqual([]);
    expect(lines(h, "(a list alone does not reopen it); said once while so")).toHaveLength(1);
    // Its confirm read keeps failing (the 404): warned of, as the watch's would be for a PAUSED one.
    expect(openGauge(h).at(-1)).toBe(1);

    // Its record by the new slug reads OPEN: reopened.
    record.bySlug = NEW_SLUG;
    await h.run(3 * RECHECK_MS);
    expect(h.botQuotes()).not.toEqual([]);
    expect(closedGauge(h).filter((n) => n > 0)).toEqual([]);
    expect(openGauge(h).at(-1)).toBe(0);
  });

  it("listed by its id under the slug that is not found (a record lagging the list): the list's status, not a failing read; its OPEN waits for the record", async () => {
    // The record endpoint lagging the list (a market just renamed, its record not yet served by the
    // new slug): the list shows the market by its id every period. Counted as a failing read, it
    // fired a false MmMarketStatusReadsFailing, and the market, listed OPEN, stayed held.
    const h = rig("PAUSED");
    const listed = { status: "PAUSED" };
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
      { marketId: "m1", slug: OLD_SLUG, status: listed.status },
    ];
    const record = { served: false };
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
      if (!record.served) throw notFound(); // a record lagging the list
      return { status: "OPEN" };
    };
    await closedAtStart(h);
    await h.run(6 * RECHECK_MS);
    expect(closedGauge(h).filter((n) => n > 0)).toEqual([]);
    expect(lines(h, "keeps failing to read")).toEqual([]);
    expect(lines(h, "market is now NOT_FOUND")).toEqual([]);
    expect(h.botQuotes()).toEqual([]); // still held PAUSED: what the list says
    // Said once at info while so (each round asks again, at debug).
    expect(lines(h, "its status taken from the list").filter((l) => l.includes('"level":30'))).toHaveLength(
      1,
    );

    // The list shows it OPEN, its record still a 404: a list alone (served stale, maybe from before
    // a pause) does not reopen a market held closed; kept held, said once, the read that would
    // reopen it failing (warned of as it lasts).
    listed.status = "OPEN";
    h.venue.setMarketStatus("m1", "OPEN");
    for (const t of h.tokens()) h.crowdQuote(t, "0.48", "0.52");
    await h.run(4 * RECHECK_MS);
    expect(h.botQuotes()).toEqual([]);
    expect(lines(h, "market is now OPEN")).toEqual([]);
    expect(
      lines(h, "kept held until its record reads OPEN").filter((l) => l.includes('"level":30')),
    ).toHaveLength(1);
    expect(lines(h, "keeps failing to read").length).toBe(1);

    // Its record reads OPEN: reopened by it, the failing read over.
    record.served = true;
    await h.run(3 * RECHECK_MS);
    expect(h.botQuotes()).not.toEqual([]);
    expect(lines(h, "market is now OPEN").length).toBeGreaterThan(0);
    expect(closedGauge(h).at(-1)).toBe(0);
  });

  it("settled, its payouts unknown, not in the list: its 404s are failing payout reads", async () => {
    const h = rig("RESOLVED"); // without payouts: its record is read for them
    const listReads: number[] = [];
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => {
      listReads.push(h.clock.now());
      return [];
    };
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => {
      throw notFound();
    };
    await closedAtStart(h);
    await h.run(6 * RECHECK_MS);
    expect(listReads.length).toBeGreaterThan(0); // the list was asked
    expect(closedGauge(h)).toContain(1);
    expect(lines(h, "market is now NOT_FOUND")).toEqual([]); // settled is final
  });
});
