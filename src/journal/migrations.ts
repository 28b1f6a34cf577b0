import type { Database } from "better-sqlite3";
import { canonicalAccountName } from "./account-name.js";
import { JournalError } from "./errors.js";

/** One step of the schema's history: applied once, in order, inside a transaction. */
export interface Migration {
  /** 1, 2, 3…: the `PRAGMA user_version` the file is at once this step has run. */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /** A data step SQL cannot say, run after `sql` in the same transaction. */
  readonly apply?: (db: Database) => void;
}

/** A decimal integer stored as TEXT (pico-USDC can outgrow SQLite's 64-bit INTEGER). */
const intText = (col: string) =>
  `${col} TEXT NOT NULL CHECK (${col} NOT IN ('', '-') AND ` +
  `(CASE WHEN substr(${col}, 1, 1) = '-' THEN substr(${col}, 2) ELSE ${col} END) NOT GLOB '*[^0-9]*')`;

/**
 * The schema, as the ordered list of every migration ever shipped. Never edit a released step:
 * append a new one. Tables are STRICT, so a REAL can never slip into a money column; amounts are
 * INTEGER micro-units (prices ≤ 10⁶, sizes < 9.2·10¹² shares) or, for pico-USDC (10⁻¹²) figures,
 * decimal integers as TEXT.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "orders and fills",
    sql: `
      CREATE TABLE runs (
        run_id        INTEGER PRIMARY KEY,
        account       TEXT    NOT NULL,
        session       TEXT    NOT NULL,
        started_at_ms INTEGER NOT NULL,
        stopped_at_ms INTEGER,
        stop_reason   TEXT,
        open_at_stop  INTEGER
      ) STRICT;
      CREATE INDEX runs_account ON runs (account, run_id);

      CREATE TABLE tokens (
        token_id  TEXT PRIMARY KEY,
        market_id TEXT NOT NULL,
        slug      TEXT,
        outcome   TEXT NOT NULL
      ) STRICT;

      CREATE TABLE intents (
        id              INTEGER PRIMARY KEY,
        run_id          INTEGER NOT NULL REFERENCES runs (run_id),
        client_order_id TEXT    NOT NULL,
        token_id        TEXT    NOT NULL,
        market_id       TEXT    NOT NULL,
        side            TEXT    NOT NULL CHECK (side IN ('buy', 'sell')),
        level           INTEGER NOT NULL,
        price_micro     INTEGER NOT NULL,
        size_micro      INTEGER NOT NULL,
        sent            INTEGER NOT NULL CHECK (sent IN (0, 1)),
        at_ms           INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX intents_client_order_id ON intents (client_order_id);

      CREATE TABLE outcomes (
        id              INTEGER PRIMARY KEY,
        run_id          INTEGER NOT NULL REFERENCES runs (run_id),
        op              TEXT    NOT NULL CHECK (op IN ('place', 'cancel', 'cancel_all')),
        client_order_id TEXT,
        market_id       TEXT,
        outcome         TEXT    NOT NULL,
        order_id        TEXT,
        code            TEXT,
        latency_ms      INTEGER,
        at_ms           INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX outcomes_client_order_id ON outcomes (client_order_id);

      CREATE TABLE fills (
        id              INTEGER PRIMARY KEY,
        run_id          INTEGER NOT NULL REFERENCES runs (run_id),
        trade_id        TEXT    NOT NULL,
        order_id        TEXT    NOT NULL,
        client_order_id TEXT,
        token_id        TEXT    NOT NULL,
        side            TEXT    NOT NULL CHECK (side IN ('buy', 'sell')),
        price_micro     INTEGER NOT NULL,
        size_micro      INTEGER NOT NULL,
        ts_ms           INTEGER NOT NULL,
        source          TEXT    NOT NULL CHECK (source IN ('stream', 'backfill')),
        UNIQUE (trade_id, order_id)
      ) STRICT;
      CREATE INDEX fills_ts ON fills (ts_ms);
    `,
  },
  {
    version: 2,
    name: "fees, accounts and PnL snapshots",
    sql: `
      CREATE TABLE fees (
        trade_id     TEXT    NOT NULL,
        order_id     TEXT    NOT NULL,
        token_id     TEXT    NOT NULL,
        asset        TEXT    NOT NULL CHECK (asset IN ('shares', 'usdc')),
        amount_micro INTEGER NOT NULL,
        ${intText("value_pico")},
        fill_ts_ms   INTEGER NOT NULL,
        at_ms        INTEGER NOT NULL,
        PRIMARY KEY (trade_id, order_id)
      ) STRICT;

      CREATE TABLE accounts (
        id               INTEGER PRIMARY KEY,
        run_id           INTEGER NOT NULL REFERENCES runs (run_id),
        at_ms            INTEGER NOT NULL,
        reason           TEXT    NOT NULL CHECK (reason IN ('restore', 'fill', 'reconcile', 'snapshot', 'stop')),
        token_id         TEXT    NOT NULL,
        size_micro       INTEGER NOT NULL,
        ${intText("cost_pico")},
        ${intText("realised_pico")},
        ${intText("fees_pico")},
        fee_shares_micro INTEGER NOT NULL,
        mark_micro       INTEGER
      ) STRICT;
      CREATE INDEX accounts_token ON accounts (token_id, id);
      CREATE INDEX accounts_run_token ON accounts (run_id, token_id, id);

      CREATE TABLE pnl (
        id          INTEGER PRIMARY KEY,
        run_id      INTEGER NOT NULL REFERENCES runs (run_id),
        at_ms       INTEGER NOT NULL,
        reason      TEXT    NOT NULL CHECK (reason IN ('snapshot', 'stop')),
        pnl_micro   INTEGER NOT NULL,
        ${intText("realised_pico")},
        ${intText("fees_pico")},
        ${intText("unrealised_pico")},
        open_orders INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: "unsent intents as counts, indexes for retention",
    // Intents the queue dropped unsent (~95 % of all intents under load) were a row in intents and
    // in outcomes each, ~11 KB of file per placement actually sent: they are now counts per run, UTC
    // hour, market and reason. fills_order lets restore and retention tell a filled order (it cannot
    // rest any more); accounts_snapshot lets retention find snapshot rows without reading the account
    // history it keeps; accounts_token served no query (those group by run first).
    sql: `
      CREATE TABLE unsent (
        id          INTEGER PRIMARY KEY,
        run_id      INTEGER NOT NULL REFERENCES runs (run_id),
        hour_ms     INTEGER NOT NULL,
        op          TEXT    NOT NULL CHECK (op IN ('place', 'cancel')),
        market_id   TEXT    NOT NULL,
        reason      TEXT    NOT NULL,
        n           INTEGER NOT NULL CHECK (n > 0),
        first_at_ms INTEGER NOT NULL,
        last_at_ms  INTEGER NOT NULL,
        UNIQUE (run_id, hour_ms, op, market_id, reason)
      ) STRICT;
      CREATE INDEX fills_order ON fills (order_id);
      CREATE INDEX accounts_snapshot ON accounts (reason) WHERE reason = 'snapshot';
      DROP INDEX accounts_token;
    `,
  },
  {
    version: 4,
    name: "kill switch trips and re-arms",
    // A tripped drawdown kill switch stays tripped until the operator re-arms it, across restarts:
    // the last row of an account's runs says which (restore.ts). Rows are few (one per trip or
    // re-arm) and never pruned. A file at version 3 simply has none: no trip to carry over.
    sql: `
      CREATE TABLE kill_switch (
        id             INTEGER PRIMARY KEY,
        run_id         INTEGER NOT NULL REFERENCES runs (run_id),
        at_ms          INTEGER NOT NULL,
        action         TEXT    NOT NULL CHECK (action IN ('trip', 'rearm')),
        peak_micro     INTEGER NOT NULL,
        pnl_micro      INTEGER NOT NULL,
        drawdown_micro INTEGER NOT NULL,
        limit_micro    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX kill_switch_run ON kill_switch (run_id, id);
    `,
  },
  {
    version: 5,
    name: "the kill switch's drawdown with each PnL snapshot",
    // An armed kill switch's drawdown from its peak carries over to the account's next run, so a
    // restart (or a crash loop) does not renew the limit: restore.ts reads the last one journaled
    // after the account's last trip or re-arm. NULL in older rows: nothing to carry.
    sql: `
      ALTER TABLE pnl ADD COLUMN drawdown_micro INTEGER CHECK (drawdown_micro >= 0);
    `,
  },
  {
    version: 6,
    name: "the first payout read of each settled market",
    // A settled market without its payouts has its record read once a minute for a day from the
    // first read; the day goes on across restarts from the earliest row of the account's runs
    // (restore.ts), so a crash-looping daemon does not read for ever. One row per market (a run
    // writes none for a market an earlier run began), never pruned.
    sql: `
      CREATE TABLE payout_reads (
        id        INTEGER PRIMARY KEY,
        run_id    INTEGER NOT NULL REFERENCES runs (run_id),
        market_id TEXT    NOT NULL,
        at_ms     INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 7,
    name: "market settlements",
    // The markets the engine took as settled (RESOLVED or VOIDED) with their payouts once known
    // (JSON: outcome index → numerator, decimal strings): `mm paper` settles them again on its fresh
    // mock for a later run on the same journal (paper-settlements.ts). Few rows, never pruned. A file
    // at version 6 has none: no settlement to carry.
    sql: `
      CREATE TABLE settlements (
        id        INTEGER PRIMARY KEY,
        run_id    INTEGER NOT NULL REFERENCES runs (run_id),
        at_ms     INTEGER NOT NULL,
        market_id TEXT    NOT NULL,
        status    TEXT    NOT NULL,
        payouts   TEXT    CHECK (payouts IS NULL OR json_valid(payouts))
      ) STRICT;
      CREATE INDEX settlements_run ON settlements (run_id, id);
    `,
  },
  {
    version: 8,
    name: "market slugs learned while running",
    // A traded market the open-market sweep's list shows by its id under a new slug (the spec
    // derives slugs from titles) takes it: the next start, whose engine.markets may still name the
    // old slug (a 404 from then on), finds the market by it (journaled-slugs.ts), and a list
    // showing a slug the market has left is not taken back on its word (SweepSlugs). Few rows,
    // never pruned. A file at version 7 has none: no slug learned.
    sql: `
      CREATE TABLE market_slugs (
        id        INTEGER PRIMARY KEY,
        run_id    INTEGER NOT NULL REFERENCES runs (run_id),
        at_ms     INTEGER NOT NULL,
        market_id TEXT    NOT NULL,
        slug      TEXT    NOT NULL,
        previous  TEXT
      ) STRICT;
      CREATE INDEX market_slugs_previous ON market_slugs (previous);
    `,
  },
  {
    version: 9,
    name: "why each cancel was asked for",
    // A cancel or cancel-all row carries the reason the engine asked for it (intents.ts
    // CancelReason: requote, expiring, kill_switch, shutdown…), so an operator reading the journal
    // sees why quotes left the book. NULL in older rows, in placement rows and in `closed` rows (no
    // request was made).
    sql: `
      ALTER TABLE outcomes ADD COLUMN reason TEXT;
    `,
  },
  {
    version: 10,
    name: "one spelling of each run's account",
    // Earlier mm keyed runs on exchange.baseUrl as configured: `HTTPS://API.x:443` and
    // `https://api.x` were two accounts of one exchange, so a restart under the other spelling
    // forgot a tripped kill switch and PnL, escaped the run lock, and mm report listed the wallet
    // twice. Every query compares runs.account as text (the restore, the lock, prune's same-account
    // joins, the report): rewriting the rows once, as today's mm names the account, keeps them all
    // right with no change, where matching spellings at each read would need every one of them.
    sql: "",
    apply: respellAccounts,
  },
];

/** Migration 10: each runs.account in the spelling accountName gives it now. */
function respellAccounts(db: Database): void {
  const stored = db.prepare("SELECT DISTINCT account FROM runs").pluck().all() as string[];
  const update = db.prepare("UPDATE runs SET account = ? WHERE account = ?");
  for (const account of stored) {
    const canonical = canonicalAccountName(account);
    if (canonical !== account) update.run(canonical, account);
  }
}

function version(db: Database): number {
  return Number(db.pragma("user_version", { simple: true }));
}

/** A file at a higher version than known was written by a newer mm: refused, untouched. */
function refuseNewer(found: number, known: number): void {
  if (found <= known) return;
  throw new JournalError(
    "journal_schema_too_new",
    `the journal is at schema version ${found}, newer than this mm knows (${known}): upgrade mm or point journal.path at another file`,
    { found, known },
  );
}

/** The schema version this mm writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the file to the last version of `migrations`: each pending step and its `user_version`
 * bump commit together, so a crash or a failing step leaves the file at the previous version,
 * never half-migrated. Each step re-reads the version under the write lock and skips itself when
 * another connection applied it meanwhile, so several processes may open one file at once. A file
 * at a higher version than known was written by a newer mm: refused (JournalError
 * `journal_schema_too_new`) without touching it, also when a newer mm upgraded it meanwhile.
 * @returns the version the file was at before.
 * @example migrate(db) // 0 for a new file; the file is now at SCHEMA_VERSION
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new JournalError("journal_migrations_invalid", `migration ${m.name} has version ${m.version}`, {
        expected: i + 1,
      });
    }
  });
  const known = migrations.length;
  const found = version(db);
  refuseNewer(found, known);
  for (const m of migrations.slice(found)) {
    try {
      db.transaction(() => {
        // Another process on the same file (two daemons started together after an upgrade) may have
        // applied this step since `found` was read: look again under the write lock, skip what is done.
        const now = version(db);
        refuseNewer(now, known);
        if (now >= m.version) return;
        db.exec(m.sql);
        m.apply?.(db);
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    } catch (err) {
      if (err instanceof JournalError) throw err;
      throw new JournalError(
        "journal_migration_failed",
        `journal migration ${m.version} (${m.name}) failed and was rolled back: ${(err as Error).message}`,
        { version: m.version, name: m.name },
        { cause: err },
      );
    }
  }
  return found;
}
