import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { reportCommand } from "../../../src/cli/report.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { scanWal } from "../../../src/journal/wal-check.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { HEADER, restartedJournal, sqliteReads } from "./restarted-wal.js";
import { ACCOUNT } from "./support.js";

/**
 * Review r2b (aa67734). After a power loss whose WAL break aa67734 accepts ("unwritten", warned),
 * SQLite's recovery ends the WAL at the commit before the break but does NOT restart it (nBackfill
 * is 0): the daemon's next commits are appended in the same generation over the frames after that
 * commit. The frames of the rolled-back commits beyond them stay, with the current salts, and still
 * chain among themselves. A kill -9 (or a second power cut) of that daemon before its first WAL
 * restart then leaves a WAL whose break is a current-generation frame followed by current frames
 * whose commits verify — exactly what the scan calls "damaged". The next start (and `mm report`,
 * even beside the live daemon) refuses a healthy journal, exit 2: SQLite's recovery reads every
 * commit the daemon made and drops only what the first recovery had already rolled back.
 */
/** A journal after a power loss (aa67734's case), opened by a daemon that accepted it with a warning. */
function acceptedPowerLoss() {
  const { path, previous, wal, frameSize, commits, dir } = restartedJournal();
  // The power loss (as power-loss-wal.test.ts): the first frame of the 4th commit since the
  // restart never reached the disk; the frames after it did.
  const lostFrame = (commits[2] as number) + 1;
  const at = HEADER + (lostFrame - 1) * frameSize;
  previous.copy(wal, at, at, at + frameSize);
  writeFileSync(`${path}-wal`, wal);

  // The start after the power loss: accepted with one warning (aa67734).
  const warnings: string[] = [];
  const daemon = openJournalDb(path, { warn: (_f, m) => warnings.push(m) });
  expect(warnings).toHaveLength(1);
  const runsAtStart = Number((daemon.prepare("SELECT count(*) AS n FROM runs").get() as { n: bigint }).n);
  return { dir, path, daemon, runsAtStart };
}

describe("r2b: a daemon killed after a start that accepted a power loss", () => {
  it("starts again: the rolled-back frames left behind the new commits are not damage", () => {
    const { dir, path, daemon, runsAtStart } = acceptedPowerLoss();
    // The daemon journals one more run, then is killed (-9): its files as they are on disk now.
    new JournalWriter(daemon).beginRun({ account: ACCOUNT, session: "after", atMs: 9_000, tokens: [] });
    const killed = join(dir, "killed.sqlite");
    copyFileSync(path, killed);
    copyFileSync(`${path}-wal`, `${killed}-wal`);
    daemon.close();

    // SQLite alone (on a copy) recovers every commit the killed daemon made, quick_check ok.
    const recovered = sqliteReads(dir, killed, readFileSync(`${killed}-wal`));
    expect(recovered.check).toBe("ok");
    expect(recovered.runs).toBe(runsAtStart + 1);
    // Not damage: the scan must not call it so (it reads the new commit, then stale frames).
    expect(scanWal(killed)?.breakKind).not.toBe("damaged");
    // The restart opens it, with every run the killed daemon had.
    const again = openJournalDb(killed, { warn: () => undefined });
    try {
      expect(Number((again.prepare("SELECT count(*) AS n FROM runs").get() as { n: bigint }).n)).toBe(
        runsAtStart + 1,
      );
    } finally {
      again.close();
    }
  });

  it("is read by mm report beside that daemon, still running (not refused as damaged)", async () => {
    const { path, daemon } = acceptedPowerLoss();
    new JournalWriter(daemon).beginRun({ account: ACCOUNT, session: "after", atMs: 9_000, tokens: [] });
    onTestFinished(() => {
      daemon.close();
    });
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (t: string) => err.push(t), env: {}, cwd: "/" };
    const code = await reportCommand.run(["--journal", path], io);
    expect(err.join("")).not.toContain("is damaged");
    expect(code).toBe(0);
  });
});
