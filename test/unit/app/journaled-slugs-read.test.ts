import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { journaledSlugs } from "../../../src/app/journaled-slugs.js";
import { ConfigError } from "../../../src/config/errors.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { ACCOUNT, journalPath } from "../journal/support.js";
import { lookupThrown, settingsOf } from "./slug-lookup.js";

/*
 * The start-up slug lookup reads the journal on a read-only connection: a file at an older schema
 * is read as it is (no rows before version 8, which added market_slugs), never migrated by it; a
 * file too new is refused on journal.path, as the run's open refuses it.
 */

describe("the start-up slug lookup's read of the journal", () => {
  it("a schema-7 file: nothing known, the file left at version 7 (the run's open migrates it)", () => {
    const path = journalPath();
    openJournalDb(path, { migrations: MIGRATIONS.filter((m) => m.version <= 7) }).close();
    expect(journaledSlugs(settingsOf(path), ACCOUNT)?.("old-title")).toBeUndefined();
    const db = openJournalDb(path, { migrations: MIGRATIONS.filter((m) => m.version <= 7) });
    try {
      expect(Number(db.pragma("user_version", { simple: true }))).toBe(7);
    } finally {
      db.close();
    }
  });

  it("a file newer than this mm: a ConfigError on journal.path, the file untouched", () => {
    const path = journalPath();
    const db = openJournalDb(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    const before = readFileSync(path);
    const thrown = lookupThrown(path, "old-title");
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(String((thrown as ConfigError).message)).toMatch(/journal\.path/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
