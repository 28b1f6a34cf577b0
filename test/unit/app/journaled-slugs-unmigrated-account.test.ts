import { describe, expect, it } from "vitest";
import { journalAccount } from "../../../src/app/journal.js";
import { journaledSlugs } from "../../../src/app/journaled-slugs.js";
import { MIGRATIONS } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { journalPath } from "../journal/support.js";
import { settingsOf } from "./slug-lookup.js";

/*
 * Review s22 (rops): the start's slug lookup (journaledSlugs) reads the journal read-only BEFORE the
 * run's open migrates it, "a file at an older schema read as it is". Since f5eb724 the account it
 * asks for is the canonical spelling, but an un-migrated (schema 9) file still holds runs.account as
 * the operator once wrote exchange.baseUrl. So the journal's word on a retitled market is lost on
 * the first start after the upgrade: the configured old slug is a 404, the start exits 2 before the
 * journal opens, so the file is never migrated and every restart exits 2 the same way. Fixed:
 * readMarketSlugs matches an older file's runs by their account's canonical spelling.
 */

const MAKER = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const MARKET = "6f1c1a52-1111-4c53-9d59-0e3e8b6b2a01";

function schema9Journal(account: string): string {
  const path = journalPath();
  const db = openJournalDb(path, { migrations: MIGRATIONS.filter((m) => m.version <= 9) });
  const w = new JournalWriter(db);
  const run = w.beginRun({ account, session: "s1", atMs: 1, tokens: [] });
  w.marketSlug(run, { atMs: 2, marketId: MARKET, slug: "new-title", previous: "old-title" });
  w.endRun(run, 3, "SIGTERM", 0);
  db.close();
  return path;
}

describe("the start's slug lookup on a journal an earlier mm wrote under an odd baseUrl spelling", () => {
  it("control: the plain spelling is found", () => {
    const path = schema9Journal(`https://api.exchange.example|${MAKER}`);
    const account = journalAccount("https://api.exchange.example", MAKER);
    expect(journaledSlugs(settingsOf(path), account)?.("old-title")).toEqual({
      marketId: MARKET,
      slug: "new-title",
    });
  });

  it("HTTPS://API.exchange.example:443 (one account since f5eb724) still knows the retitled market", () => {
    const path = schema9Journal(`HTTPS://API.exchange.example:443|${MAKER}`);
    // What the daemon asks with after loadConfig canonicalised exchange.baseUrl.
    const account = journalAccount("HTTPS://API.exchange.example:443", MAKER);
    expect(journaledSlugs(settingsOf(path), account)?.("old-title")).toEqual({
      marketId: MARKET,
      slug: "new-title",
    });
  });

  it("an un-migrated file's other account (http, not https) stays another account's", () => {
    const path = schema9Journal(`HTTP://API.exchange.example|${MAKER}`);
    const account = journalAccount("https://api.exchange.example", MAKER);
    expect(journaledSlugs(settingsOf(path), account)?.("old-title")).toBeUndefined();
  });
});
