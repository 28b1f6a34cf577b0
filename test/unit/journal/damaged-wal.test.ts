import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { reportCommand } from "../../../src/cli/report.js";
import { ConfigError } from "../../../src/config/errors.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { JournalError } from "../../../src/journal/errors.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { checksum, scanWal } from "../../../src/journal/wal-check.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { ACCOUNT, journalPath } from "./support.js";

const HEADER = 32;
const FRAME_HEADER = 24;
const RUNS = 12;

/**
 * A killed daemon's journal: RUNS commits (one run row each) still in the WAL, the files copied
 * while the writer has them open (a close would checkpoint the WAL into the file and delete it).
 * @returns the copy's path and the WAL's commit frames (1-based), the runs' the last RUNS of them
 */
function killedJournal(): { path: string; commits: number[] } {
  const live = journalPath();
  const db = openJournalDb(live);
  const writer = new JournalWriter(db);
  for (let i = 0; i < RUNS; i++)
    writer.beginRun({ account: ACCOUNT, session: `s${i}`, atMs: 1_000 + i, tokens: [] });
  const path = join(dirname(journalPath()), "journal.sqlite");
  copyFileSync(live, path);
  copyFileSync(`${live}-wal`, `${path}-wal`);
  db.close();
  const wal = readFileSync(`${path}-wal`);
  const frameSize = FRAME_HEADER + wal.readUInt32BE(8);
  const commits: number[] = [];
  for (let i = 1; HEADER + i * frameSize <= wal.length; i++) {
    if (wal.readUInt32BE(HEADER + (i - 1) * frameSize + 4) !== 0) commits.push(i);
  }
  return { path, commits };
}

/** Flips one byte in the page data of WAL frame `frame` (1-based), as a bad sector or a torn write would. */
function damageFrame(path: string, frame: number): void {
  const wal = readFileSync(`${path}-wal`);
  const frameSize = FRAME_HEADER + wal.readUInt32BE(8);
  const at = HEADER + (frame - 1) * frameSize + FRAME_HEADER + 100;
  wal[at] = (wal[at] as number) ^ 0xff;
  writeFileSync(`${path}-wal`, wal);
}

const runsIn = (path: string, opts: BetterSqlite3.Options = {}): number => {
  const db = new BetterSqlite3(path, opts);
  try {
    return (db.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("a journal whose WAL is damaged in the middle", () => {
  it("SQLite alone drops the commits after the damaged frame without an error (why mm checks)", () => {
    const { path, commits } = killedJournal();
    expect(commits.length).toBeGreaterThanOrEqual(RUNS);
    damageFrame(path, commits[commits.length - RUNS + 5] as number); // the 6th run's commit
    const raw = new BetterSqlite3(path, { readonly: true });
    expect(raw.pragma("quick_check", { simple: true })).toBe("ok");
    raw.close();
    expect(runsIn(path, { readonly: true })).toBe(5); // 12 runs journaled, no error
  });

  it("is refused untouched, naming the files, the frame, the commits lost and what to do", () => {
    const { path, commits } = killedJournal();
    const broken = commits[5] as number;
    damageFrame(path, broken);
    const before = [readFileSync(path), readFileSync(`${path}-wal`)];
    const err = (() => {
      try {
        openJournalDb(path).close();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(JournalError);
    const je = err as JournalError;
    expect(je.code).toBe("journal_damaged");
    expect(je.details).toMatchObject({ path, wal: `${path}-wal`, brokenFrame: broken });
    expect(je.details.lostCommits).toBe(commits.filter((c) => c > broken).length);
    expect(je.message).toContain(
      `the journal at ${path} is damaged, so mm did not open it for writing (its files are as they were)`,
    );
    expect(je.message).toContain(`its WAL file ${path}-wal is damaged at frame ${broken} of `);
    expect(je.message).toContain(`sqlite3 ${path} "PRAGMA wal_checkpoint"`);
    // Nothing opened it for writing: the WAL is still there, byte for byte, and so is the file.
    expect(readFileSync(path).equals(before[0] as Buffer)).toBe(true);
    expect(readFileSync(`${path}-wal`).equals(before[1] as Buffer)).toBe(true);
  });

  it("stops mm run's start as a journal.path error (exit 2) naming the file, the WAL left as it was", () => {
    const { path, commits } = killedJournal();
    damageFrame(path, commits[5] as number);
    const wal = readFileSync(`${path}-wal`);
    let thrown: unknown;
    try {
      openDaemonJournal(
        { path, snapshotIntervalMs: 0, sync: "normal", retentionDays: 0 },
        {
          account: ACCOUNT,
          session: "s2",
          tokens: [],
          clock: new SimClock(5_000),
          logger: createLogger({ level: "info", pretty: false, destination: collectingStream() }),
        },
      ).close();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).lines().join("\n")).toContain(
      `journal.path: the journal at ${path} is damaged`,
    );
    expect(readFileSync(`${path}-wal`).equals(wal)).toBe(true);
  });

  it("stops mm report too (exit 2): its figures would silently lack the dropped commits", async () => {
    const { path, commits } = killedJournal();
    damageFrame(path, commits[5] as number);
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (t: string) => err.push(t), env: {}, cwd: "/" };
    expect(await reportCommand.run(["--journal", path], io)).toBe(2);
    expect(err.join("")).toMatch(
      /^mm report: the journal at .* is damaged, so mm did not open it for writing/,
    );
  });

  it("opens when the WAL is whole, or damaged only in a last commit's frames (a torn last write)", () => {
    const whole = killedJournal();
    expect(scanWal(whole.path)).toMatchObject({ lostCommits: 0, brokenFrame: undefined });
    const db = openJournalDb(whole.path);
    expect((db.prepare("SELECT count(*) AS n FROM runs").get() as { n: bigint }).n).toBe(BigInt(RUNS));
    db.close();

    const torn = killedJournal();
    damageFrame(torn.path, torn.commits.at(-1) as number);
    openJournalDb(torn.path).close();
    expect(runsIn(torn.path)).toBe(RUNS - 1);
  });

  it("is refused when the WAL's header is damaged (SQLite would ignore every frame)", () => {
    const { path } = killedJournal();
    const wal = readFileSync(`${path}-wal`);
    wal[20] = (wal[20] as number) ^ 0x01; // a salt byte: the header's checksum no longer holds
    writeFileSync(`${path}-wal`, wal);
    expect(() => openJournalDb(path)).toThrow(/has a damaged header: SQLite would ignore its \d+ frame/);
    expect(existsSync(`${path}-wal`)).toBe(true);
  });
});

describe("a WAL that SQLite restarted (frames of an earlier generation after the current ones)", () => {
  it("opens with every commit: stale frames are not lost commits", () => {
    const live = journalPath();
    const db = openJournalDb(live);
    db.pragma("wal_autocheckpoint = 0");
    const writer = new JournalWriter(db);
    for (let i = 0; i < RUNS; i++)
      writer.beginRun({ account: ACCOUNT, session: `a${i}`, atMs: i, tokens: [] });
    db.pragma("wal_checkpoint(PASSIVE)");
    // The next commit restarts the WAL from its start; the older, longer generation stays after it.
    for (let i = 0; i < 2; i++) writer.beginRun({ account: ACCOUNT, session: `b${i}`, atMs: i, tokens: [] });
    const path = join(dirname(journalPath()), "journal.sqlite");
    copyFileSync(live, path);
    copyFileSync(`${live}-wal`, `${path}-wal`);
    db.close();
    const scan = scanWal(path);
    expect(scan?.frames).toBeGreaterThan(scan?.recoveredFrames ?? 0);
    expect(scan).toMatchObject({ lostCommits: 0, brokenFrame: undefined });
    const reopened = openJournalDb(path);
    expect((reopened.prepare("SELECT count(*) AS n FROM runs").get() as { n: bigint }).n).toBe(
      BigInt(RUNS + 2),
    );
    reopened.close();
  });
});

describe("a journal file damaged itself", () => {
  it("is refused by PRAGMA quick_check before anything writes to it, with the finding quoted", () => {
    const path = journalPath();
    const db = openJournalDb(path);
    const writer = new JournalWriter(db);
    for (let i = 0; i < RUNS; i++)
      writer.beginRun({ account: ACCOUNT, session: `s${i}`, atMs: i, tokens: [] });
    const root = Number(db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'runs'").pluck().get());
    const pageSize = Number(db.pragma("page_size", { simple: true }));
    db.close(); // checkpointed: the runs are in the file itself now
    const file = readFileSync(path);
    file[(root - 1) * pageSize] = 0x00; // the b-tree page's type byte: no valid page type
    writeFileSync(path, file);
    const before = readFileSync(path);
    expect(() => openJournalDb(path)).toThrow(
      /is damaged, so mm did not open it for writing .*PRAGMA quick_check finds it damaged: /,
    );
    expect(() => openJournalDb(path)).toThrow(/sqlite3 .* \.recover \| sqlite3 new\.sqlite/);
    expect(readFileSync(path).equals(before)).toBe(true);
    // Checked read-only: at most an empty WAL appears (a read-only connection never checkpoints).
    expect(existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`).length : 0).toBe(0);
  });
});

describe("the WAL checksum", () => {
  it("is the same word by word (any byte order, unaligned data) as through the machine's own words", () => {
    const data = Buffer.from(Array.from({ length: 4104 }, (_, i) => (i * 131 + 7) & 0xff));
    const unaligned = Buffer.alloc(data.length + 1).subarray(1);
    data.copy(unaligned);
    const swapped = Buffer.from(data).swap32();
    const native = checksum(false, data, 0x01020304, 0xa0b0c0d0);
    expect(checksum(false, unaligned, 0x01020304, 0xa0b0c0d0)).toEqual(native);
    // Big-endian words of the byte-swapped data are the same numbers as little-endian words of the data.
    expect(checksum(true, swapped, 0x01020304, 0xa0b0c0d0)).toEqual(native);
  });
});
