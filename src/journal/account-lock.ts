import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { JournalError } from "./errors.js";

/** Who holds an account's run lock, as its holder note says. */
export interface AccountLockHolder {
  readonly pid: number;
  readonly host: string;
  /** The holder's start (its clock). */
  readonly startedAtMs: number;
  readonly session: string;
  /** Its run in the journal, once begun. */
  readonly run?: number;
}

/** A held run lock of one account on one journal. */
export interface AccountLock {
  /** The lock file; undefined for a `:memory:` journal (nothing to share, nothing locked). */
  readonly file: string | undefined;
  /** Records the holder's run id in its note, for the message of a refused start. */
  setRun(run: number): void;
  /** Removes the note, then drops the lock (closing the file). Idempotent; never throws. */
  release(): void;
}

const NO_LOCK: AccountLock = { file: undefined, setRun: () => undefined, release: () => undefined };

/**
 * The files of an account's run lock beside `journal`: `<journal>.<16 hex of the account's sha256>`
 * + `.lock` (the SQLite file whose lock is held) and + `.holder` (the JSON note naming the holder).
 */
export function accountLockFiles(journal: string, account: string): { lock: string; note: string } {
  const base = `${journal}.${createHash("sha256").update(account).digest("hex").slice(0, 16)}`;
  return { lock: `${base}.lock`, note: `${base}.holder` };
}

/**
 * Takes the run lock of `account` on the journal at `journal`, for as long as this process lives or
 * until `release()`: one daemon per account and journal file. The lock is an OS advisory lock (the
 * POSIX record lock SQLite takes on a small file of its own beside the journal, held through
 * `locking_mode = EXCLUSIVE`), so the kernel drops it when the process ends however it ends
 * (SIGKILL, OOM, a crash): a dead holder never blocks the next start, with no pid check (pids are
 * reused; in a container every daemon is pid 1) and no staleness timeout. Another account's lock is
 * another file: accounts still share the journal. The journal file itself is not touched (readers
 * such as `mm report` are never blocked). The holder writes a note (pid, host, start, session, run)
 * that a refused start quotes; the note is only read after a refusal, so a stale one never matters.
 * Throws JournalError `journal_account_in_use` (details: account, holder when its note is readable)
 * when another process (or connection) holds it, `journal_lock_failed` when the file cannot be
 * opened or locked otherwise (unwritable folder).
 * @example const lock = lockJournalAccount(path, account, { session, atMs: clock.now() }); … lock.release();
 */
export function lockJournalAccount(
  journal: string,
  account: string,
  o: {
    readonly session: string;
    readonly atMs: number;
    /** The account as messages name it (default `account`; e.g. without credentials in a URL). */
    readonly label?: string;
  },
): AccountLock {
  if (journal === ":memory:") return NO_LOCK;
  const files = accountLockFiles(journal, account);
  let db: Database;
  try {
    mkdirSync(dirname(files.lock), { recursive: true, mode: 0o700 });
    const created = !existsSync(files.lock);
    db = new BetterSqlite3(files.lock);
    if (created) chmodSync(files.lock, 0o600);
  } catch (err) {
    throw lockFailed(files.lock, o.label ?? account, err);
  }
  try {
    // No wait: the holder keeps the lock for its whole life, waiting would only delay the refusal.
    db.pragma("busy_timeout = 0");
    // Exclusive locking mode keeps the lock past the transaction, until the connection closes.
    db.pragma("locking_mode = EXCLUSIVE");
    // No rollback journal file beside the lock (nothing is ever written to it).
    db.pragma("journal_mode = MEMORY");
    db.exec("BEGIN EXCLUSIVE; COMMIT");
  } catch (err) {
    db.close();
    if (isBusy(err)) throw inUse(journal, o.label ?? account, readHolder(files.note));
    throw lockFailed(files.lock, o.label ?? account, err);
  }
  let holder: AccountLockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAtMs: o.atMs,
    session: o.session,
  };
  writeHolder(files.note, holder);
  let released = false;
  return {
    file: files.lock,
    setRun: (run) => {
      if (released) return;
      holder = { ...holder, run };
      writeHolder(files.note, holder);
    },
    release: () => {
      if (released) return;
      released = true;
      // The note first: once the lock is dropped the next holder may already have written its own.
      removeQuietly(files.note);
      db.close();
    },
  };
}

function inUse(journal: string, account: string, h: AccountLockHolder | undefined): JournalError {
  const who =
    h === undefined
      ? "its pid and host are unknown (no readable holder note)"
      : `pid ${h.pid} on host ${h.host}${h.run === undefined ? "" : `, run ${h.run}`} (session ${h.session}), ` +
        `started ${new Date(h.startedAtMs).toISOString()}`;
  return new JournalError(
    "journal_account_in_use",
    `account ${account} is already being run on the journal at ${journal} by another mm: ${who}`,
    { account, journal, ...(h === undefined ? {} : { holder: h }) },
  );
}

function lockFailed(file: string, account: string, err: unknown): JournalError {
  return new JournalError(
    "journal_lock_failed",
    `cannot take the run lock ${file} of account ${account}: ${(err as Error).message}`,
    { path: file, account },
    { cause: err },
  );
}

/**
 * Writes the note whole (a temp file renamed over it), mode 0600. A failure is ignored: the note
 * only names the holder in a refusal, the lock is what refuses.
 */
function writeHolder(note: string, h: AccountLockHolder): void {
  const tmp = `${note}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(h)}\n`, { mode: 0o600 });
    renameSync(tmp, note);
  } catch {
    removeQuietly(tmp);
  }
}

/** Removes a file if it is there; a failure is ignored (a stale note is never read as live). */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // An unwritable folder: the lock, not the note, decides.
  }
}

/** The holder's note, when it is there and well-formed. */
function readHolder(note: string): AccountLockHolder | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(note, "utf8"));
  } catch {
    return undefined;
  }
  const h = raw as Partial<Record<keyof AccountLockHolder, unknown>> | null;
  if (
    typeof h?.pid !== "number" ||
    typeof h.host !== "string" ||
    typeof h.startedAtMs !== "number" ||
    typeof h.session !== "string"
  ) {
    return undefined;
  }
  const base = { pid: h.pid, host: h.host, startedAtMs: h.startedAtMs, session: h.session };
  return typeof h.run === "number" ? { ...base, run: h.run } : base;
}

/** SQLITE_BUSY and its extended codes: another connection holds the lock. */
function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
