import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { reportCommand } from "../../../src/cli/report.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { JournalError } from "../../../src/journal/errors.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { scanWal } from "../../../src/journal/wal-check.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { FRAME_HEADER, HEADER, restartedJournal, sqliteReads } from "./restarted-wal.js";
import { ACCOUNT } from "./support.js";

const DISK_PAGE = 4096;

/**
 * The commits (of the 6 after the restart) whose commit frame lies after frame `frame`, as the scan
 * counts them: all but the one the frame belongs to when that one spans more frames (its commit
 * frame chains from the lost frame's new checksum, which the disk never got).
 */
const commitsAfter = (commits: readonly number[], frame: number): number =>
  commits.filter((c) => c > frame + 1 || (c === frame + 1 && commits.includes(frame))).length;

function openWarned(path: string): { runs: number; warnings: string[]; fields: Record<string, unknown>[] } {
  const warnings: string[] = [];
  const fields: Record<string, unknown>[] = [];
  const db = openJournalDb(path, {
    warn: (f, m) => {
      fields.push(f);
      warnings.push(m);
    },
  });
  try {
    return {
      runs: Number((db.prepare("SELECT count(*) AS n FROM runs").get() as { n: bigint }).n),
      warnings,
      fields,
    };
  } finally {
    db.close();
  }
}

/**
 * README (journal.synchronous, Crash safety): with the default `synchronous = normal` "a power loss
 * can roll back the last instants, never corrupt the file". Under NORMAL the WAL is not fsynced per
 * commit, and the kernel / the disk's cache write its pages back in any order: after a power loss a
 * frame in the middle of the last commits may still hold what it held before (a frame of the previous
 * WAL generation, its salts not the header's) while later frames reached the disk. SQLite's recovery
 * then ends the WAL at that frame — the documented roll-back of the last instants, a consistent
 * prefix. A frame of the previous generation is never bit rot: it is a write that did not reach the
 * disk. (Found in review, s20: the scan refused it as damaged, exit 2.)
 */
describe("a journal after a power loss under synchronous=normal", () => {
  it("opens, rolled back to the last instants the disk kept (README: Crash safety), not refused as damaged", () => {
    const { dir, path, previous, wal, frameSize, commits, runsBefore } = restartedJournal();
    // The power loss: the first frame of the 4th commit since the restart never reached the disk
    // (it still holds the previous generation's frame); the frames after it did.
    const lostFrame = (commits[2] as number) + 1;
    expect(commits[5] as number).toBeGreaterThan(lostFrame + 1);
    const at = HEADER + (lostFrame - 1) * frameSize;
    previous.copy(wal, at, at, at + frameSize);
    writeFileSync(`${path}-wal`, wal);
    // What SQLite's own recovery makes of it (on a copy): a consistent prefix, no error.
    expect(sqliteReads(dir, path, wal)).toEqual({ check: "ok", runs: runsBefore[2] });

    const reopened = openWarned(path); // the daemon's restart after the power loss
    expect(reopened.runs).toBe(runsBefore[2]); // 40 + the 3 commits before the lost frame: the last instants rolled back
    expect(reopened.warnings).toHaveLength(1);
    expect(reopened.warnings[0]).toContain(`ends at frame ${lostFrame} of `);
    const after = commitsAfter(commits, lostFrame);
    expect(after).toBeGreaterThanOrEqual(2);
    expect(reopened.warnings[0]).toContain(`rolls back the commits after it (at least ${after})`);
    expect(reopened.fields[0]).toMatchObject({
      wal: `${path}-wal`,
      brokenFrame: lostFrame,
      rolledBack: after,
    });
  });

  it("opens when a frame is torn across its two disk pages, the one it shares with the next frame's header never written", () => {
    const { dir, path, previous, wal, frameSize, commits, runsBefore } = restartedJournal();
    const tornFrame = (commits[2] as number) + 1;
    const at = HEADER + (tornFrame - 1) * frameSize;
    // The frame's header and the start of its page reached the disk; the disk page after that did not.
    const page = Math.ceil((at + 48) / DISK_PAGE) * DISK_PAGE;
    expect(page + DISK_PAGE).toBeGreaterThan(at + frameSize + 16); // it holds the next frame's salts
    previous.copy(wal, page, page, page + DISK_PAGE);
    writeFileSync(`${path}-wal`, wal);
    expect(scanWal(path)).toMatchObject({
      brokenFrame: tornFrame,
      breakKind: "unwritten",
      lostCommits: commitsAfter(commits, tornFrame),
    });
    expect(sqliteReads(dir, path, wal)).toEqual({ check: "ok", runs: runsBefore[2] });
    const reopened = openWarned(path);
    expect(reopened.runs).toBe(runsBefore[2]);
    expect(reopened.warnings).toHaveLength(1);
  });

  it("opens when a middle frame of a growing WAL reads as zeros (its disk block never written)", () => {
    const { dir, path, wal, frameSize, commits, runsBefore } = restartedJournal();
    const zeroed = (commits[2] as number) + 1;
    const at = HEADER + (zeroed - 1) * frameSize;
    wal.fill(0, at, at + frameSize);
    writeFileSync(`${path}-wal`, wal);
    expect(scanWal(path)).toMatchObject({ brokenFrame: zeroed, breakKind: "unwritten" });
    expect(sqliteReads(dir, path, wal).runs).toBe(runsBefore[2]);
    expect(openWarned(path).runs).toBe(runsBefore[2]);
  });

  it("is still refused when a frame of the current generation fails its checksum and the next one is current too (bit rot)", () => {
    const { path, wal, frameSize, commits } = restartedJournal();
    const rotten = (commits[2] as number) + 1;
    const at = HEADER + (rotten - 1) * frameSize + FRAME_HEADER + 100;
    wal[at] = (wal[at] as number) ^ 0x10;
    writeFileSync(`${path}-wal`, wal);
    expect(scanWal(path)).toMatchObject({
      brokenFrame: rotten,
      breakKind: "damaged",
      lostCommits: commits.filter((c) => c > rotten).length, // its stored checksum is intact: all verify
    });
    expect(() => openJournalDb(path)).toThrow(JournalError);
    expect(() => openJournalDb(path)).toThrow(`is damaged at frame ${rotten} of `);
  });

  it("is said at warn in the daemon's log, and on mm report's stderr (which still prints, exit 0)", async () => {
    const { path, previous, wal, frameSize, commits } = restartedJournal();
    const lost = (commits[2] as number) + 1;
    const at = HEADER + (lost - 1) * frameSize;
    previous.copy(wal, at, at, at + frameSize);
    writeFileSync(`${path}-wal`, wal);
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (t: string) => err.push(t), env: {}, cwd: "/" };
    expect(await reportCommand.run(["--journal", path], io)).toBe(0);
    expect(err.join("")).toMatch(
      /^mm report: warning: journal .*-wal ends at frame \d+ of \d+, a write that never/,
    );

    const log = collectingStream();
    openDaemonJournal(
      { path, snapshotIntervalMs: 0, sync: "normal", retentionDays: 0 },
      {
        account: ACCOUNT,
        session: "s-after",
        tokens: [],
        clock: new SimClock(5_000),
        logger: createLogger({ level: "info", pretty: false, destination: log }),
      },
    ).close();
    const warned = log.records().filter((r) => r.level === 40 || r.level === "warn");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ brokenFrame: lost, wal: `${path}-wal` });
  });
});
