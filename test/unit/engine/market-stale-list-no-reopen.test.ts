import { describe, expect, it } from "vitest";
import type { ListedMarketStatus } from "../../../src/engine/ports.js";
import { Harness } from "./support/harness.js";
import { logLines as lines, oneQuoted, recordBy } from "./support/sweep-rig.js";

/*
 * Review r21 (rslug) of 8cdfd0b + fde23e5. A market held closed whose record 404s by the slug held
 * has the list read for it (ClosedMarketWatch.#askList); when the list shows it by its id, its
 * status is now taken from the list (#listWord), an OPEN one reopening the market. fde23e5 teaches
 * the engine that a list showing a market under a slug it has LEFT is a stale list (a cache, a
 * lagging replica: "the list taken as stale", SweepSlugs). But listSays only checks the held slug
 * against the one that 404'd, never the slug the list shows: the very list SweepSlugs calls stale
 * (its status from before the pause) reopens a market a push paused, and mm quotes into it.
 */

const RECHECK_MS = 5_000;
const OLD = "will-it-rain";
const NEW = "will-it-rain-tomorrow";
const LATEST = "will-it-rain-tomorrow-in-paris";

/** m1 learns OLD, then is retitled NEW and learns it: OLD is a slug it has left. */
async function learnsOldThenNew(h: Harness, ex: { listSlug: string; recordSlug: string }): Promise<void> {
  await h.run(RECHECK_MS);
  ex.listSlug = NEW;
  ex.recordSlug = NEW;
  await h.run(2 * RECHECK_MS);
  expect(h.eventsOf("market_slug").at(-1)?.slug).toBe(NEW);
}

describe("a market held PAUSED whose record 404s, the list stale (showing a slug the market left)", () => {
  it("is not reopened on that stale list's OPEN", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const ex = { listSlug: OLD, listStatus: "OPEN", recordSlug: OLD, recordStatus: "OPEN" };
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> => [
      { marketId: "m1", slug: ex.listSlug, status: ex.listStatus },
    ];
    h.exchange.marketRecord = recordBy(ex);
    const a = await oneQuoted(h);
    await learnsOldThenNew(h, ex);
    expect(h.botQuotes(a)).toHaveLength(2);

    // Paused by a push (fresh word); retitled again while paused (its record by NEW a 404); the
    // list served stale from before both: m1 under OLD, OPEN.
    ex.recordStatus = "PAUSED";
    ex.recordSlug = LATEST;
    ex.listSlug = OLD;
    ex.listStatus = "OPEN";
    h.venue.setMarketStatus("m1", "PAUSED");
    await h.run(500);
    expect(h.botQuotes(a)).toEqual([]);
    const reopenedBefore = lines(h, "market is now OPEN").length;

    await h.run(6 * RECHECK_MS);
    expect(lines(h, "the list taken as stale").length).toBeGreaterThan(0); // the engine knows
    // …yet reopened on it (the line says "by the open-market sweep's market list, by its id").
    expect(lines(h, "market is now OPEN").slice(reopenedBefore)).toEqual([]);
    expect(h.botQuotes(a)).toEqual([]);
  });
});

describe("a market held NOT_FOUND, the list stale (showing it OPEN under a slug it left)", () => {
  it("is not reopened on that list (a list that shows it by its slug now would)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const ex = { listed: true, listSlug: OLD, recordSlug: OLD, recordStatus: "OPEN" };
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      ex.listed ? [{ marketId: "m1", slug: ex.listSlug, status: "OPEN" }] : [];
    h.exchange.marketRecord = recordBy(ex);
    const a = await oneQuoted(h);
    await learnsOldThenNew(h, ex);

    // Retitled again (LATEST), left out of the list: a 404 by NEW, held NOT_FOUND.
    ex.listed = false;
    ex.recordSlug = LATEST;
    await h.run(2 * RECHECK_MS);
    expect(lines(h, "market is now NOT_FOUND").length).toBeGreaterThan(0);
    expect(h.botQuotes(a)).toEqual([]);

    // A list served stale from before the first rename: m1 under OLD, OPEN.
    ex.listed = true;
    ex.listSlug = OLD;
    const reopenedBefore = lines(h, "market is now OPEN").length;
    await h.run(6 * RECHECK_MS);
    expect(lines(h, "the list taken as stale").length).toBeGreaterThan(0);
    expect(lines(h, "market is now OPEN").slice(reopenedBefore)).toEqual([]);
    expect(h.botQuotes(a)).toEqual([]);

    // A list that shows it under its slug now (LATEST, not one it left): reopened, as before.
    ex.listSlug = LATEST;
    await h.run(3 * RECHECK_MS);
    expect(lines(h, "market is now OPEN").slice(reopenedBefore).length).toBeGreaterThan(0);
  });
});
