import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { JournalError } from "./errors.js";
import { checkJournalIntact, type JournalWarn } from "./integrity.js";
import { MIGRATIONS, type Migration, migrate } from "./migrations.js";

/** How commits reach the disk (SQLite's `synchronous` in WAL mode). */
export type JournalSync = "normal" | "full";

export interface OpenJournalOptions {
  /**
   * `normal` (default): every committed transaction survives the process being killed (SIGKILL, OOM,
   * a crash): in WAL mode a commit is a write into the WAL file, which the OS holds once write()
   * returns; only the kernel dying too (power loss) can roll back the last commits, and even then
   * the file stays consistent (checkpoints are fsynced). `full` also fsyncs the WAL on each commit,
   * surviving power loss, at the price of one fsync per journaled event on the event loop.
   */
  readonly sync?: JournalSync;
  /** Refuse to create the file (readers such as `mm report`): JournalError `journal_not_found`. */
  readonly mustExist?: boolean;
  /** The schema history to apply (tests build older files with a prefix). Default MIGRATIONS. */
  readonly migrations?: readonly Migration[];
  /**
   * How long a statement waits for another connection's lock before failing SQLITE_BUSY, ms. Default
   * OPEN_BUSY_TIMEOUT_MS, for readers (`mm report` next to a running daemon) and for a daemon's
   * start-up (migrations, its run row, the restore: nothing is in flight yet). A daemon's recorder
   * then writes with a far shorter wait (LockWait, DAEMON_BUSY_TIMEOUT_MS).
   */
  readonly busyTimeoutMs?: number;
  /**
   * Run `PRAGMA quick_check` on an existing file before opening it (checkJournalIntact; its WAL is
   * always checked). Default true; it reads the whole file, ~5–10 ms per MB.
   */
  readonly quickCheck?: boolean;
  /**
   * Where the check says what recovery will roll back after a power loss (its WAL ends at a frame
   * that never reached the disk). Default: a process warning on stderr.
   */
  readonly warn?: JournalWarn;
}

/** The default busy timeout of openJournalDb, ms. */
export const OPEN_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (or creates: mode 0600, its folder 0700) the journal's SQLite file: WAL mode, the chosen
 * `synchronous`, a busy timeout (default 5 s: a reader such as `mm report` may share the file with a
 * running daemon), foreign keys on, migrated to the latest schema, and 64-bit integers read as bigint so no
 * amount ever passes through a float. An existing file is first checked (checkJournalIntact): a
 * damaged one is refused untouched, never opened for writing, whose recovery and close could drop
 * commits for good.
 * Throws JournalError (`journal_not_found`, `journal_damaged`, `journal_open_failed`,
 * `journal_schema_too_new`, `journal_migration_failed`).
 * @example const db = openJournalDb("/var/lib/mm/journal.sqlite"); … db.close();
 */
export function openJournalDb(path: string, opts: OpenJournalOptions = {}): Database {
  if (opts.mustExist === true && (path === ":memory:" || !existsSync(path))) {
    throw new JournalError("journal_not_found", `no journal at ${path}`, { path });
  }
  const rolledBack =
    path !== ":memory:" &&
    existsSync(path) &&
    checkJournalIntact(path, {
      quickCheck: opts.quickCheck ?? true,
      ...(opts.warn === undefined ? {} : { warn: opts.warn }),
    });
  let db: Database;
  try {
    const created = path !== ":memory:" && !existsSync(path);
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    db = new BetterSqlite3(path, { fileMustExist: opts.mustExist === true });
    // Trading history is the operator's business only; SQLite gives the -wal and -shm files this mode too.
    if (created) chmodSync(path, 0o600);
  } catch (err) {
    throw new JournalError(
      "journal_open_failed",
      `cannot open the journal at ${path}: ${(err as Error).message}`,
      { path },
      { cause: err },
    );
  }
  try {
    db.pragma("journal_mode = WAL");
    // A power loss accepted above: recovery ended the WAL before the lost frame but keeps its
    // generation, so this run's commits would land among the rolled-back frames, which still chain
    // and verify — the next scan would call that healthy file damaged. A checkpoint that restarts
    // the WAL makes the roll-back final first.
    if (rolledBack) db.pragma("wal_checkpoint(TRUNCATE)");
    db.pragma(`synchronous = ${opts.sync === "full" ? "FULL" : "NORMAL"}`);
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? OPEN_BUSY_TIMEOUT_MS))}`);
    db.pragma("foreign_keys = ON");
    db.defaultSafeIntegers(true);
    migrate(db, opts.migrations ?? MIGRATIONS);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof JournalError) throw err;
    throw new JournalError(
      "journal_open_failed",
      `cannot open the journal at ${path}: ${(err as Error).message}`,
      { path },
      { cause: err },
    );
  }
}
