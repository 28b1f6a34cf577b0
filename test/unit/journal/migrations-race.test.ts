import BetterSqlite3, { type Database } from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { hasCode } from "../../../src/core/errors.js";
import { MIGRATIONS, type Migration, migrate, SCHEMA_VERSION } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { journalPath } from "./support.js";

/**
 * Connection `b` as seen by migrate(), with `meanwhile` run right after its first read of
 * user_version: what another process opening the same file at that moment does. Two processes
 * interleave exactly there (the read is outside the write lock), which a single thread can only
 * reproduce this way.
 */
function interleaved(b: Database, meanwhile: () => void): Database {
  let done = false;
  return new Proxy(b, {
    get(target, prop, receiver) {
      if (prop === "pragma") {
        return (source: string, opts?: { simple?: boolean }) => {
          const out = target.pragma(source, opts);
          if (source === "user_version" && !done) {
            done = true;
            meanwhile();
          }
          return out;
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === "function" ? v.bind(target) : v;
    },
  }) as Database;
}

const version = (db: Database): number => Number(db.pragma("user_version", { simple: true }));

describe("journal migrations with two processes on one file", () => {
  it("a second opener that read user_version before the first one migrated skips the steps already applied", () => {
    // Two daemons (two wallets) share mm run's default per-user file, started together after an
    // upgrade: the file is at version 1; B reads 1, A migrates to the latest, then B applies what
    // it thought was pending.
    const path = journalPath();
    openJournalDb(path, { migrations: MIGRATIONS.slice(0, 1) }).close();
    const b = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 1) });
    const bView = interleaved(b, () => openJournalDb(path).close());
    expect(migrate(bView)).toBe(1);
    expect(version(b)).toBe(SCHEMA_VERSION);
    // Every table of the latest schema is there once, and works.
    b.prepare("INSERT INTO runs (account, session, started_at_ms) VALUES ('a', 's', 1)").run();
    b.prepare(
      `INSERT INTO fees (trade_id, order_id, token_id, asset, amount_micro, value_pico, fill_ts_ms, at_ms)
       VALUES ('t', 'o', 'x', 'usdc', 1, '1000000', 1, 1)`,
    ).run();
    b.close();
  });

  it("still refuses, without writing, a file a newer mm upgraded meanwhile", () => {
    const path = journalPath();
    openJournalDb(path, { migrations: MIGRATIONS.slice(0, 1) }).close();
    const newer: Migration[] = [
      ...MIGRATIONS,
      { version: SCHEMA_VERSION + 1, name: "from a newer mm", sql: "CREATE TABLE later (x INTEGER) STRICT" },
    ];
    const b = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 1) });
    const bView = interleaved(b, () => openJournalDb(path, { migrations: newer }).close());
    let caught: unknown;
    try {
      migrate(bView);
    } catch (err) {
      caught = err;
    }
    expect(hasCode(caught, "journal_schema_too_new")).toBe(true);
    b.close();
    const raw = new BetterSqlite3(path, { readonly: true });
    expect(version(raw)).toBe(SCHEMA_VERSION + 1);
    raw.close();
  });
});
