import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { onTestFinished } from "vitest";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath } from "./support.js";

/** The WAL file's header, bytes (SQLite's file format, "WAL file format"). */
export const HEADER = 32;
/** A WAL frame's header, bytes; the page follows it. */
export const FRAME_HEADER = 24;

/**
 * A journal whose WAL was restarted (40 runs checkpointed, then 6 more runs over the previous
 * generation's frames), copied while its writer has it open, with what is needed to undo writes.
 */
export function restartedJournal() {
  const live = journalPath();
  const db = openJournalDb(live); // sync normal, the default
  db.pragma("wal_autocheckpoint = 0");
  const writer = new JournalWriter(db);
  let n = 0;
  const commit = () => writer.beginRun({ account: ACCOUNT, session: `s${n++}`, atMs: 1_000 + n, tokens: [] });
  for (let i = 0; i < 40; i++) commit();
  db.pragma("wal_checkpoint(PASSIVE)"); // fsyncs the WAL, then the file: all of it durable
  const previous = readFileSync(`${live}-wal`); // the generation the next write restarts over
  const frameSize = FRAME_HEADER + previous.readUInt32BE(8);
  const runsBefore: number[] = [];
  const commits: number[] = [];
  for (let i = 0; i < 6; i++) {
    commit();
    const wal = readFileSync(`${live}-wal`);
    let last = 0;
    for (let f = 1; HEADER + f * frameSize <= wal.length; f++) {
      const at = HEADER + (f - 1) * frameSize;
      if (!wal.subarray(at + 8, at + 16).equals(wal.subarray(16, 24))) break;
      if (wal.readUInt32BE(at + 4) !== 0) last = f;
    }
    commits.push(last);
    runsBefore.push(n);
  }
  const dir = mkdtempSync(join(tmpdir(), "mm-power-loss-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "journal.sqlite");
  copyFileSync(live, path);
  const wal = readFileSync(`${live}-wal`);
  db.close();
  return { dir, path, previous, wal, frameSize, commits, runsBefore };
}

/** SQLite's own recovery of the file with `wal` (on a copy): quick_check and the runs it reads. */
export function sqliteReads(dir: string, path: string, wal: Buffer): { check: unknown; runs: number } {
  const probe = join(dir, "probe.sqlite");
  copyFileSync(path, probe);
  writeFileSync(`${probe}-wal`, wal);
  const raw = new BetterSqlite3(probe, { readonly: true });
  try {
    const check = raw.pragma("quick_check", { simple: true });
    return { check, runs: (raw.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n };
  } finally {
    raw.close();
  }
}
