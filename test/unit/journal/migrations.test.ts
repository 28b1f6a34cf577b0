import { statSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { hasCode } from "../../../src/core/errors.js";
import { JournalError } from "../../../src/journal/errors.js";
import { MIGRATIONS, migrate, SCHEMA_VERSION } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

const version = (path: string): number => {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return Number(db.pragma("user_version", { simple: true }));
  } finally {
    db.close();
  }
};

const tables = (db: BetterSqlite3.Database): string[] =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);

describe("journal schema and migrations", () => {
  it("numbers its migrations 1..n and creates a new file at the latest version, in WAL mode", () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    const path = journalPath();
    const db = openJournalDb(path);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("synchronous", { simple: true })).toBe(1n); // NORMAL
    expect(tables(db)).toEqual([
      "accounts",
      "fees",
      "fills",
      "intents",
      "kill_switch",
      "market_slugs",
      "outcomes",
      "payout_reads",
      "pnl",
      "runs",
      "settlements",
      "tokens",
      "unsent",
    ]);
    db.close();
    expect(version(path)).toBe(SCHEMA_VERSION);
    const full = openJournalDb(path, { sync: "full" });
    expect(full.pragma("synchronous", { simple: true })).toBe(2n); // FULL
    full.close();
  });

  it("upgrades a file written at version 1, keeping its rows", () => {
    const path = journalPath();
    const v1 = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 1) });
    expect(tables(v1)).not.toContain("fees");
    v1.prepare("INSERT INTO runs (account, session, started_at_ms) VALUES (?, 'old', 1)").run(ACCOUNT);
    v1.prepare(
      `INSERT INTO fills (run_id, trade_id, order_id, token_id, side, price_micro, size_micro, ts_ms, source)
       VALUES (1, 'tr1', 'o1', 't1', 'buy', 470000, 10000000, 5, 'stream')`,
    ).run();
    v1.close();
    expect(version(path)).toBe(1);

    const db = openJournalDb(path);
    expect(version(path)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT trade_id, size_micro FROM fills").all()).toEqual([
      { trade_id: "tr1", size_micro: 10_000_000n },
    ]);
    // The tables of version 2 work on the upgraded file.
    new JournalWriter(db).fee(fill(), { asset: "usdc", amountMicro: 20_000n }, 6);
    expect(db.prepare("SELECT value_pico FROM fees").get()).toEqual({ value_pico: "20000000000" });
    db.close();
  });

  it("upgrades a file written at version 2: its rows stay (old unsent intents included), unsent counts go to their table", () => {
    const path = journalPath();
    const v2 = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 2) });
    const run = Number(
      (
        v2
          .prepare("INSERT INTO runs (account, session, started_at_ms) VALUES (?, 'old', 1) RETURNING run_id")
          .get(ACCOUNT) as { run_id: bigint }
      ).run_id,
    );
    v2.prepare(
      `INSERT INTO intents (run_id, client_order_id, token_id, market_id, side, level, price_micro, size_micro, sent, at_ms)
       VALUES (?, 'c1', 't1', 'm1', 'buy', 0, 470000, 10000000, 0, 2)`,
    ).run(run);
    v2.close();

    const db = openJournalDb(path);
    expect(version(path)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT client_order_id, sent FROM intents").all()).toEqual([
      { client_order_id: "c1", sent: 0n },
    ]);
    const indexes = (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(indexes).toContain("fills_order");
    expect(indexes).not.toContain("accounts_token");
    new JournalWriter(db).unsent(run, {
      hourMs: 0,
      op: "place",
      marketId: "m1",
      reason: "shed",
      n: 3,
      firstAtMs: 5,
      lastAtMs: 9,
    });
    expect(db.prepare("SELECT n FROM unsent").get()).toEqual({ n: 3n });
    db.close();
  });

  it("refuses a file from a newer mm with journal_schema_too_new, leaving it untouched", () => {
    const path = journalPath();
    openJournalDb(path).close();
    const raw = new BetterSqlite3(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    let caught: unknown;
    try {
      openJournalDb(path);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JournalError);
    expect(hasCode(caught, "journal_schema_too_new")).toBe(true);
    expect((caught as JournalError).details).toEqual({ found: SCHEMA_VERSION + 1, known: SCHEMA_VERSION });
    expect((caught as Error).message).toMatch(/newer than this mm knows/);
    expect(version(path)).toBe(SCHEMA_VERSION + 1);
  });

  it("rolls a failing migration back whole: the version and the schema stay as they were", () => {
    const db = new BetterSqlite3(":memory:");
    migrate(db, MIGRATIONS.slice(0, 1));
    const broken = [
      ...MIGRATIONS.slice(0, 1),
      { version: 2, name: "broken", sql: "CREATE TABLE half (x INTEGER); NOT SQL" },
    ];
    expect(() => migrate(db, broken)).toThrow(/journal migration 2 \(broken\) failed/);
    expect(Number(db.pragma("user_version", { simple: true }))).toBe(1);
    expect(tables(db)).not.toContain("half");
    expect(() => migrate(db, [{ version: 2, name: "gap", sql: "" }])).toThrow(JournalError);
    db.close();
  });

  it("refuses to create a file for a reader (mustExist)", () => {
    const path = journalPath();
    expect(() => openJournalDb(path, { mustExist: true })).toThrow(/no journal at/);
  });
});

describe("journal file", () => {
  it("is created readable by its owner only, with its WAL", () => {
    const path = journalPath();
    const db = openJournalDb(path);
    new JournalWriter(db).beginRun({ account: ACCOUNT, session: "s", atMs: 1, tokens: [] });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    db.close();
  });
});
