import BetterSqlite3 from "better-sqlite3";
import { JournalError } from "./errors.js";
import { scanWal } from "./wal-check.js";

/**
 * Where a journal check says what it accepts but the operator should know (a daemon's logger at warn,
 * `mm report`'s stderr): the fields and the message.
 */
export type JournalWarn = (fields: Record<string, unknown>, message: string) => void;

/** Without a JournalWarn of the caller's: a process warning on stderr, never silence. */
const PROCESS_WARNING: JournalWarn = (_fields, message) => process.emitWarning(message, "JournalWarning");

/** How many of quick_check's lines the error quotes (it can list thousands). */
const QUOTED_LINES = 3;

/**
 * Refuses a damaged journal before anything opens it for writing, so its files stay as they were:
 * - its `-wal` file (scanWal): commits after a damaged frame, which SQLite's recovery would drop
 *   without an error — and the first read-write connection's close would then delete for good.
 *   Commits after a frame that never reached the disk (a power loss under synchronous=NORMAL: the
 *   documented roll-back of the last instants) are accepted, and `warn` names what recovery drops;
 * - with `quickCheck`, the database itself: `PRAGMA quick_check` (b-tree structure, record format,
 *   NOT NULL and CHECK constraints; not the indexes' contents), on a read-only connection, which
 *   never checkpoints the WAL into the file on close. It reads the whole file: ~5–10 ms per MB.
 * A file or WAL that is merely absent, or that this process may not open, is left to the caller's
 * open, which names its own error.
 * Returns true when it accepted such a power loss: the caller that writes must end the WAL there
 * for good (openJournalDb checkpoints it) before its own commits land among the rolled-back frames.
 * Throws JournalError `journal_damaged` (details: path, and the WAL's frames or quick_check's lines).
 * @example const rolledBack = checkJournalIntact("/var/lib/mm/journal.sqlite", { quickCheck: true });
 */
export function checkJournalIntact(
  path: string,
  opts: { readonly quickCheck: boolean; readonly warn?: JournalWarn },
): boolean {
  const wal = scanWal(path);
  if (wal?.headerDamaged === true) {
    throw damaged(
      path,
      "wal",
      `its WAL file ${path}-wal has a damaged header: SQLite would ignore its ${wal.frames} frame(s), every commit since the last checkpoint`,
      { wal: `${path}-wal`, frames: wal.frames },
    );
  }
  if (wal?.breakKind === "unwritten") {
    (opts.warn ?? PROCESS_WARNING)(
      {
        path,
        wal: `${path}-wal`,
        frames: wal.frames,
        brokenFrame: wal.brokenFrame,
        rolledBack: wal.lostCommits,
      },
      `journal ${path}: its WAL file ${path}-wal ends at frame ${wal.brokenFrame} of ${wal.frames}, a write that ` +
        `never reached the disk while later ones did (a power loss under journal.synchronous "normal"): SQLite's ` +
        `recovery keeps the journal up to the commit before it and rolls back the commits after it (at least ` +
        `${wal.lostCommits}), the last instants before the power loss; the next start's reconcile takes the ` +
        "exchange's orders and positions as they are",
    );
  }
  if (wal?.breakKind === "damaged") {
    throw damaged(
      path,
      "wal",
      `its WAL file ${path}-wal is damaged at frame ${wal.brokenFrame} of ${wal.frames}: SQLite would end the ` +
        `WAL there and silently drop the ${wal.lostCommits} commit(s) after it`,
      { wal: `${path}-wal`, frames: wal.frames, brokenFrame: wal.brokenFrame, lostCommits: wal.lostCommits },
    );
  }
  if (opts.quickCheck) quickCheck(path);
  return wal?.breakKind === "unwritten";
}

function quickCheck(path: string): void {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  } catch {
    return; // absent or not ours to open: the caller's open says so
  }
  let lines: string[];
  try {
    lines = (db.pragma(`quick_check(${QUOTED_LINES})`) as { quick_check: string }[]).map(
      (r) => r.quick_check,
    );
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // A header or page so damaged that SQLite cannot even start the check.
    if (typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) lines = [(err as Error).message];
    else return; // busy, read-only folder…: the caller's open meets it and names it
  } finally {
    db.close();
  }
  if (lines.length === 1 && lines[0] === "ok") return;
  throw damaged(path, "file", `PRAGMA quick_check finds it damaged: ${lines.join("; ")}`, {
    quickCheck: lines,
  });
}

/** How to go on: after a damaged WAL a checkpoint keeps what recovery reads; a damaged file needs a copy out. */
function remedy(path: string, kind: "wal" | "file"): string {
  const accept =
    kind === "wal"
      ? `accept the loss with \`sqlite3 ${path} "PRAGMA wal_checkpoint"\` (it keeps the commits before the damage)`
      : `copy out what SQLite can read with \`sqlite3 ${path} .recover | sqlite3 new.sqlite\` and move new.sqlite into its place`;
  return (
    `Stop every mm using it and keep a copy of ${path} and its -wal and -shm files; then restore a backup, ` +
    `or ${accept}, or move the files aside to start a new journal. The exchange stays the authority: the ` +
    `next start's reconcile takes its orders and positions as they are, only the journal's history is lost`
  );
}

function damaged(
  path: string,
  kind: "wal" | "file",
  what: string,
  details: Record<string, unknown>,
): JournalError {
  return new JournalError(
    "journal_damaged",
    `the journal at ${path} is damaged, so mm did not open it for writing (its files are as they were): ${what}. ${remedy(path, kind)}`,
    { path, ...details },
  );
}
