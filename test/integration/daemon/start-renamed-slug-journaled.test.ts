import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { journalAccount } from "../../../src/app/journal.js";
import { readMarketSlugs } from "../../../src/journal/market-slugs.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { journaledRename } from "./journaled-rename.js";
import {
  daemonConfig,
  daemonSlots,
  market,
  memoryLogger,
  startMock,
  tempJournals,
  WALLET,
} from "./support.js";

/*
 * Review r21 (rslug) of 673e629. The journal says ARG left OLD for MID; while mm was down ARG was
 * retitled again (MID → its slug now). engine.markets names OLD (a 404): the start finds ARG by its
 * id in the list and quotes it under its slug now. But nothing journals MID → now ("a market that
 * takes its new slug at start through the journal emits no new market_slug; the journal already
 * has the row" — it has not, here): the journal still says ARG is at MID. So the next start with
 * ARG past the list's cap reads MID (a 404) and exits 2, and MID is not a slug the sweep knows ARG
 * left (restore.slugsLeft), so a stale list showing MID is taken back on its word.
 */

const ARG = market("arg-vs-fra-final-arg-win");
const OLD = "argentina-vs-france-final-argentina-wins";
const MID = "argentina-beat-france-in-the-final";
const slots = daemonSlots();
const newJournal = tempJournals("mm-review-rslug-");

describe("a start that finds, through the journal, a market under a slug the journal does not know", () => {
  it("journals the market's slug now, so the journal's word follows the exchange", async () => {
    const m = await startMock();
    slots.mock = m;
    const journal = journaledRename(newJournal(), m, ARG, { from: OLD, to: MID });
    const { logger } = memoryLogger();
    const d = await startDaemon(daemonConfig(m, [OLD]), { logger, journal });
    slots.daemon = d;
    expect(d.markets.slugs).toEqual([ARG.slug]); // found by its id in the list
    await d.stop("test over");
    slots.daemon = undefined;

    const db = openJournalDb(journal.path, { mustExist: true });
    try {
      const slugs = readMarketSlugs(db, journalAccount(m.httpUrl, WALLET));
      expect(slugs.renamedFrom(OLD)?.slug).toBe(ARG.slug); // still MID
      expect(slugs.left().get(ARG.id)).toContain(MID);
    } finally {
      db.close();
    }
  });
});
