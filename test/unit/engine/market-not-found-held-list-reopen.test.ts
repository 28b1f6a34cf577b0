import { describe, expect, it } from "vitest";
import type { ListedMarketStatus } from "../../../src/engine/ports.js";
import { Harness } from "./support/harness.js";
import { logLines as lines, oneQuoted, recordBy } from "./support/sweep-rig.js";

/*
 * Review r21 (r2b) of c682296. That fix made "a market list alone never reopens a held market": a
 * market a push paused, whose record 404s, shown OPEN by the list (served from before the pause),
 * stays held until its record reads OPEN. But the same market reaches the list-alone reopen in two
 * steps when one list in between leaves it out (a list showing only public-status markets while it
 * is paused, a lagging replica, the cap): the closed-market watch then holds it NOT_FOUND
 * (LIST_WORD.closedNotFound), and the open-market sweep reopens a NOT_FOUND market on the list's
 * OPEN alone (#listedAgain), its record still a 404: mm quotes into the pause the push announced.
 */

const RECHECK_MS = 5_000;
const SLUG = "will-it-rain";
const LATER = "will-it-rain-tomorrow";

describe("a market a push paused, whose record 404s, left out of one list", () => {
  it("is not reopened by a later list's OPEN alone (its record never read OPEN)", async () => {
    const h = new Harness({ markets: 1, latencyMs: 50, options: { marketRecheckMs: RECHECK_MS } });
    const ex = { listed: true, listStatus: "OPEN", recordSlug: SLUG, recordStatus: "OPEN" };
    h.exchange.listedMarkets = async (): Promise<ListedMarketStatus[]> =>
      ex.listed ? [{ marketId: "m1", slug: SLUG, status: ex.listStatus }] : [];
    h.exchange.marketRecord = recordBy(ex);
    const a = await oneQuoted(h);
    await h.run(RECHECK_MS);
    expect(h.botQuotes(a)).toHaveLength(2);

    // Paused by a push; retitled while paused (its record by SLUG a 404); a list that leaves it out.
    ex.recordStatus = "PAUSED";
    ex.recordSlug = LATER;
    ex.listed = false;
    h.venue.setMarketStatus("m1", "PAUSED");
    await h.run(500);
    expect(h.botQuotes(a)).toEqual([]);
    await h.run(3 * RECHECK_MS);
    expect(lines(h, "market is now NOT_FOUND").length).toBeGreaterThan(0);
    const reopenedBefore = lines(h, "market is now OPEN").length;

    // A list served from before the pause (a lagging replica): m1 under SLUG, OPEN. Still paused,
    // its record still a 404: the very list c682296 does not reopen a held market on.
    ex.listed = true;
    await h.run(6 * RECHECK_MS);
    expect(lines(h, "market is now OPEN").slice(reopenedBefore)).toEqual([]);
    expect(h.botQuotes(a)).toEqual([]);
  });
});
