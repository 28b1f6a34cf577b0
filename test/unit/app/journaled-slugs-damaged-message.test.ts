import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/errors.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { ACCOUNT, journalPath } from "../journal/support.js";
import { lookupThrown } from "./slug-lookup.js";

/*
 * Review r21 (r2b) of b8e1def + d69a200. Since d69a200 every start with a journal and named
 * markets reads the journal for the slug lookup (journalOnFound asks it of each configured slug
 * found), read-only and without quick_check, before the run's own open. A damaged file whose damage
 * the lookup meets (the schema page, the runs table) is then refused there as "cannot read the
 * journal at … for the slugs its markets took: database disk image is malformed" — not as the
 * damaged journal README (Reliability, Damage) promises: "the journal at <path> is damaged, so mm
 * did not open it for writing (its files are as they were): PRAGMA quick_check finds it damaged …
 * restore a backup, or copy out what SQLite can read with `sqlite3 <path> .recover` …". The
 * operator loses the diagnosis and the way out at the very start that needs them.
 */

function damagedJournal(): string {
  const path = journalPath();
  const db = openJournalDb(path);
  const insert = db.prepare("INSERT INTO runs (account, session, started_at_ms) VALUES (?, ?, ?)");
  for (let i = 0; i < 200; i++) insert.run(ACCOUNT, `s${i}`, i);
  db.close();
  const file = readFileSync(path);
  file[100] = 0x00; // the schema page's b-tree type byte (page 1, after the 100-byte header)
  writeFileSync(path, file);
  return path;
}

describe("the start-up slug lookup on a damaged journal", () => {
  it("is refused as the run's open refuses it: damaged, left as it was, with the way out", () => {
    const path = damagedJournal();
    let ownOpen = "";
    try {
      openJournalDb(path).close();
    } catch (err) {
      ownOpen = (err as Error).message;
    }
    expect(ownOpen).toMatch(/is damaged, so mm did not open it for writing/);
    // A configured slug found at start: asked of the journal at every start (journalOnFound).
    const lookup = (lookupThrown(path, "some-market") as Error | undefined)?.message ?? "";
    // Either the lookup leaves the refusal to the run's open (nothing thrown here), or it says the same.
    if (lookup !== "") {
      expect(lookup).toMatch(/is damaged, so mm did not open it for writing/);
      expect(lookup).toMatch(/\.recover/);
    }
  });

  it("refuses it on journal.path with the run's open's words, the file left as it was", () => {
    const path = damagedJournal();
    const before = readFileSync(path);
    const refused = lookupThrown(path, "some-market");
    expect(refused).toBeInstanceOf(ConfigError);
    const issues = (refused as ConfigError).issues;
    expect(issues.map((i) => i.field)).toEqual(["journal.path"]);
    expect(issues[0]?.message).toMatch(/PRAGMA quick_check finds it damaged/);
    expect(issues[0]?.message).not.toMatch(/for the slugs its markets took/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
