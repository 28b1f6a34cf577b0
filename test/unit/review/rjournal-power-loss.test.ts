import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath } from "../journal/support.js";

const HEADER = 32;
const FRAME_HEADER = 24;

/**
 * Review (s20 journal): README (journal.synchronous, Crash safety) says that with the default
 * `synchronous = normal` "a power loss can roll back the last instants, never corrupt the file" and
 * "the most a power loss costs is the PnL attribution of those instants". Under NORMAL the WAL is not
 * fsynced per commit, and the kernel / the disk's cache write its pages back in any order: after a
 * power loss a frame in the middle of the last commits may still hold what it held before (a frame of
 * the previous WAL generation, its salts not the header's) while later frames reached the disk.
 * SQLite's recovery then ends the WAL at that frame — the documented roll-back of the last instants,
 * a consistent prefix. The new scan calls this "damaged" and the daemon refuses to start (exit 2)
 * until an operator runs `PRAGMA wal_checkpoint` — which keeps exactly what recovery would have kept.
 * A frame of the previous generation is never bit rot: it is a write that did not reach the disk.
 */
describe("review rjournal: a journal after a power loss under synchronous=normal", () => {
  it("opens, rolled back to the last instants the disk kept (README: Crash safety), not refused as damaged", () => {
    const live = journalPath();
    const db = openJournalDb(live); // sync normal, the default
    db.pragma("wal_autocheckpoint = 0");
    const writer = new JournalWriter(db);
    let n = 0;
    const commit = () =>
      writer.beginRun({ account: ACCOUNT, session: `s${n++}`, atMs: 1_000 + n, tokens: [] });
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
    const dir = mkdtempSync(join(tmpdir(), "mm-review-power-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "journal.sqlite");
    copyFileSync(live, path);
    const wal = readFileSync(`${live}-wal`);
    db.close();
    // The power loss: the first frame of the 4th commit since the restart never reached the disk
    // (it still holds the previous generation's frame); the frames after it did.
    const lostFrame = (commits[2] as number) + 1;
    expect(commits[5] as number).toBeGreaterThan(lostFrame + 1);
    const at = HEADER + (lostFrame - 1) * frameSize;
    previous.copy(wal, at, at, at + frameSize);
    writeFileSync(`${path}-wal`, wal);
    // What SQLite's own recovery makes of it (on a copy): a consistent prefix, no error.
    const probe = join(dir, "probe.sqlite");
    copyFileSync(path, probe);
    writeFileSync(`${probe}-wal`, wal);
    const raw = new BetterSqlite3(probe, { readonly: true });
    expect(raw.pragma("quick_check", { simple: true })).toBe("ok");
    expect((raw.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n).toBe(runsBefore[2]);
    raw.close();

    const reopened = openJournalDb(path); // the daemon's restart after the power loss
    try {
      const runs = Number((reopened.prepare("SELECT count(*) AS n FROM runs").get() as { n: bigint }).n);
      expect(runs).toBe(runsBefore[2]); // 40 + the 3 commits before the lost frame: the last instants rolled back
    } finally {
      reopened.close();
    }
  });
});
