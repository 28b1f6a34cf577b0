import { existsSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { JournalError } from "./errors.js";
import { checkJournalIntact, type JournalWarn } from "./integrity.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import { OPEN_BUSY_TIMEOUT_MS, openJournalDb } from "./open.js";
import { dropCopy, guardedTempDir } from "./temp-copies.js";

/** A journal opened for reading only; close() also removes the private copy when one was made. */
export interface JournalReader {
  readonly db: Database;
  /** True when the journal was read from a private copy (see openJournalReader). */
  readonly copied: boolean;
  close(): void;
}

/**
 * Opens a journal for reading (`mm report`) without ever opening it for writing: a read-only
 * connection, 64-bit integers as bigint, the 5 s busy timeout (a daemon may be writing it). Its WAL
 * is checked first (checkJournalIntact, without quick_check: the report reads what it reads), and
 * `warn` told what recovery rolls back after a power loss (default: a process warning).
 *
 * SQLite reads a WAL-mode file read-only only if it can use the `-wal` and `-shm` files beside it,
 * or create them. On read-only media (a read-only folder, a backup disc) after a clean stop (no
 * `-wal`), or after a kill that left a `-wal` without its `-shm`, it cannot; the `immutable` URI flag
 * would skip the WAL's commits, and better-sqlite3 takes no URIs. So such a journal is copied (with
 * its `-wal`) into a private temp folder and read there; so is a file at an older schema version,
 * which the copy is migrated to (the original is never upgraded by a reader). Nothing of this mm can
 * be writing the file then: a running daemon keeps both its `-wal` and `-shm`, and its schema current.
 * The copy (the whole trading history) is removed at close, and if the process ends first: on any
 * exit, and on SIGINT, SIGTERM or SIGHUP, after which the process ends by that signal as it would
 * have without a handler (unless the process has handlers of its own for it). The copy is made
 * asynchronously, so such a signal (a Ctrl-C during a long copy) is taken at once.
 * Throws JournalError (`journal_not_found`, `journal_damaged`, `journal_schema_too_new`,
 * `journal_open_failed`).
 * @example const r = await openJournalReader(path); try { buildReport(r.db); } finally { r.close(); }
 */
export async function openJournalReader(
  path: string,
  opts: { readonly warn?: JournalWarn } = {},
): Promise<JournalReader> {
  if (path === ":memory:" || !existsSync(path)) {
    throw new JournalError("journal_not_found", `no journal at ${path}`, { path });
  }
  checkJournalIntact(path, { quickCheck: false, ...(opts.warn === undefined ? {} : { warn: opts.warn }) });
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    db.defaultSafeIntegers(true);
    // The first read opens the WAL (or fails to, on read-only media): the schema version.
    const version = Number(db.pragma("user_version", { simple: true }));
    if (version >= SCHEMA_VERSION) {
      migrate(db); // refuses a newer file; at this version it writes nothing
      const open = db;
      return { db: open, copied: false, close: () => open.close() };
    }
  } catch (err) {
    if (err instanceof JournalError) {
      db?.close();
      throw err;
    }
    if (!cannotReadInPlace(err)) {
      db?.close();
      throw new JournalError(
        "journal_open_failed",
        `cannot open the journal at ${path}: ${(err as Error).message}`,
        { path },
        { cause: err },
      );
    }
  }
  db?.close();
  return readCopy(path);
}

/** SQLite's answers when the -wal or -shm it needs cannot be created or opened. */
function cannotReadInPlace(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && /^SQLITE_(CANTOPEN|READONLY)/.test(code);
}

async function readCopy(path: string): Promise<JournalReader> {
  const dir = guardedTempDir("mm-journal-read-");
  const copy = join(dir, "journal.sqlite");
  try {
    // The -wal after the file: a checkpoint in between cannot happen (nothing writes the file).
    await copyFile(path, copy);
    if (existsSync(`${path}-wal`)) await copyFile(`${path}-wal`, `${copy}-wal`);
    // The copy's WAL is the original's, checked and warned about above.
    const db = openJournalDb(copy, { mustExist: true, quickCheck: false, warn: () => undefined });
    return {
      db,
      copied: true,
      close: () => {
        db.close();
        dropCopy(dir);
      },
    };
  } catch (err) {
    dropCopy(dir);
    if (err instanceof JournalError) throw err;
    throw new JournalError(
      "journal_open_failed",
      `cannot read the journal at ${path} (nor a copy of it): ${(err as Error).message}`,
      { path },
      { cause: err },
    );
  }
}
