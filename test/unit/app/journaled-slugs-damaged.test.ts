import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { ACCOUNT, journalPath } from "../journal/support.js";
import { lookupThrown } from "./slug-lookup.js";

/*
 * Review r21 (rslug) of 673e629. journaledSlugs opens the journal read-write (openJournalDb) with
 * quickCheck: false, before the run's own open runs the quick check. A file damaged itself (not its
 * WAL) is thus opened for writing, and, at schema 7, migrated to 8 (writes into a damaged b-tree)
 * before the run's open refuses it with "mm did not open it for writing (its files are as they
 * were)": no longer true. A reader that needs a couple of rows should open read-only.
 */
describe("the start-up slug lookup on a damaged journal at schema 7", () => {
  it("leaves the file as it was (the run's open refuses it untouched, as its message says)", () => {
    const path = journalPath();
    const db = openJournalDb(path, { migrations: MIGRATIONS.filter((m) => m.version <= 7) });
    const insert = db.prepare("INSERT INTO runs (account, session, started_at_ms) VALUES (?, ?, ?)");
    for (let i = 0; i < 200; i++) insert.run(ACCOUNT, `s${i}`, i);
    const root = Number(db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'runs'").pluck().get());
    const pageSize = Number(db.pragma("page_size", { simple: true }));
    db.close();
    const file = readFileSync(path);
    file[(root - 1) * pageSize] = 0x00; // the b-tree page's type byte: no valid page type
    writeFileSync(path, file);
    const before = readFileSync(path);
    lookupThrown(path, "old-title"); // refusing here is fine too
    expect(() => openJournalDb(path)).toThrow(/PRAGMA quick_check finds it damaged/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
