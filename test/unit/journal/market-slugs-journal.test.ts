import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { readMarketSlugs } from "../../../src/journal/market-slugs.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { ACCOUNT, journalPath } from "./support.js";

/**
 * The journal keeps each slug a traded market took while mm ran (`market_slug`: the open-market
 * sweep's list showed it by its id under a new one). Without it a restart whose engine.markets still
 * named the old slug, a 404 from then on, exited 2 on a market mm was trading; the next start finds
 * the market by it (journaledSlugs), and the sweep counts the slugs it left (restore.slugsLeft).
 */
describe("the journal keeps the slugs markets took", () => {
  it("records the engine's market_slug; a slug left names the market and the slug it took last", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const tokens = [
      { tokenId: "t1", marketId: "m1", slug: "old-title", outcome: "YES" },
      { tokenId: "t2", marketId: "m1", slug: "old-title", outcome: "NO" },
    ];
    const r1 = w.beginRun({ account: ACCOUNT, session: "s1", atMs: 1, tokens });
    const rec = new JournalRecorder({
      writer: w,
      run: r1,
      clock: new SimClock(0),
      logger: memoryLogger("warn").logger,
      snapshotIntervalMs: 0,
    });
    rec.onEvent({ type: "market_slug", atMs: 5, marketId: "m1", slug: "new-title", previous: "old-title" });
    rec.onEvent({ type: "market_slug", atMs: 6, marketId: "m1", slug: "newer-title", previous: "new-title" });
    rec.onEvent({ type: "market_slug", atMs: 7, marketId: "m2", slug: "m2-title", previous: undefined });
    expect(rec.failures).toBe(0);
    w.endRun(r1, 8, "SIGTERM", 0);
    // Another account (another exchange) saw another rename: not this account's.
    const other = w.beginRun({ account: `${ACCOUNT}-other`, session: "s2", atMs: 9, tokens: [] });
    w.marketSlug(other, { atMs: 10, marketId: "m9", slug: "b", previous: "a" });

    const slugs = readMarketSlugs(db, ACCOUNT);
    expect(slugs.renamedFrom("old-title")).toEqual({ marketId: "m1", slug: "newer-title" });
    expect(slugs.renamedFrom("new-title")).toEqual({ marketId: "m1", slug: "newer-title" });
    expect(slugs.renamedFrom("newer-title")).toBeUndefined(); // its slug now
    expect(slugs.renamedFrom("a")).toBeUndefined();
    expect(slugs.left()).toEqual(new Map([["m1", ["old-title", "new-title"]]]));
    expect(readMarketSlugs(db, `${ACCOUNT}-other`).renamedFrom("a")).toEqual({ marketId: "m9", slug: "b" });
    // Its tokens carry the slug it has now: `mm report` names the market by it.
    expect(db.prepare("SELECT DISTINCT slug FROM tokens WHERE market_id = 'm1'").pluck().all()).toEqual([
      "newer-title",
    ]);
    db.close();
  });

  it("a market that went back to a slug it had left: that slug is its own again", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const run = w.beginRun({ account: ACCOUNT, session: "s1", atMs: 1, tokens: [] });
    w.marketSlug(run, { atMs: 2, marketId: "m1", slug: "b", previous: "a" });
    w.marketSlug(run, { atMs: 3, marketId: "m1", slug: "a", previous: "b" });
    const slugs = readMarketSlugs(db, ACCOUNT);
    expect(slugs.renamedFrom("a")).toBeUndefined();
    expect(slugs.renamedFrom("b")).toEqual({ marketId: "m1", slug: "a" });
    expect(slugs.left()).toEqual(new Map([["m1", ["b"]]]));
    db.close();
  });
});
