import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { reportCommand } from "../../../src/cli/report.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { openJournalReader } from "../../../src/journal/open-read.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { type ReportOutcome, runReport } from "./report-run.js";
import { twoRunJournal } from "./report-support.js";
import { journalPath } from "./support.js";

const CHILD = join(dirname(fileURLToPath(import.meta.url)), "report-child.ts");
/** An unprivileged uid/gid (nobody) for the child when the tests run as root. */
const NOBODY = 65534;
const TOTAL = "all days    all markets       5    23.5  10.8533325";

/**
 * The two-run journal as a killed daemon leaves it: a third run committed to the WAL only, the
 * `-shm` kept or not (a copy made while the writer has them open; its close would checkpoint).
 */
function killedJournal(withShm: boolean): string {
  const live = twoRunJournal();
  const db = openJournalDb(live);
  new JournalWriter(db).beginRun({ account: "a", session: "three", atMs: Date.UTC(2025, 5, 4), tokens: [] });
  const path = join(dirname(journalPath()), "journal.sqlite");
  copyFileSync(live, path);
  copyFileSync(`${live}-wal`, `${path}-wal`);
  if (withShm) copyFileSync(`${live}-shm`, `${path}-shm`);
  db.close();
  return path;
}

/**
 * `mm report --journal PATH` for each path, each one's folder made read-only (0555) for the run.
 * As root, for whom permissions do not restrict, the reports run in a child process as nobody,
 * which owns the files (0600, as mm creates them) but not their folders; undefined when nobody
 * cannot read the test's own files.
 */
async function reportReadOnly(paths: readonly string[]): Promise<ReportOutcome[] | undefined> {
  const dirs = paths.map((p) => dirname(p));
  for (const d of dirs) chmodSync(d, 0o555);
  try {
    if (process.getuid?.() !== 0) {
      const outcomes: ReportOutcome[] = [];
      for (const path of paths) outcomes.push(await runReport(path));
      return outcomes;
    }
    // A checkout nobody may not read (under /root, say) cannot run the child: nothing to check then.
    const probe = `require("fs").accessSync(${JSON.stringify(CHILD)}, require("fs").constants.R_OK)`;
    if (spawnSync(process.execPath, ["-e", probe], { uid: NOBODY, gid: NOBODY }).status !== 0)
      return undefined;
    for (const d of dirs) for (const f of readdirSync(d)) chownSync(join(d, f), NOBODY, NOBODY);
    const child = spawnSync(process.execPath, ["--import", "tsx", CHILD, ...paths], {
      uid: NOBODY,
      gid: NOBODY,
      encoding: "utf8",
      env: { ...process.env, HOME: "/tmp" },
      timeout: 30_000,
    });
    expect(child.stderr).toBe("");
    return child.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ReportOutcome);
  } finally {
    for (const d of dirs) chmodSync(d, 0o700);
  }
}

describe("mm report on read-only media", () => {
  it("reads a journal in a read-only folder: cleanly stopped, or killed with its -wal (with or without its -shm)", async (ctx) => {
    const clean = twoRunJournal();
    const killed = killedJournal(true);
    const noShm = killedJournal(false);
    const before = [clean, killed, noShm].map((p) => readdirSync(dirname(p)).sort());
    const outcomes = await reportReadOnly([clean, killed, noShm]);
    if (outcomes === undefined) return ctx.skip("running as root, and nobody cannot read this checkout");
    expect(outcomes.map((o) => o.err)).toEqual(["", "", ""]);
    expect(outcomes.map((o) => o.code)).toEqual([0, 0, 0]);
    for (const o of outcomes) expect(o.out).toContain(TOTAL);
    // The killed daemon's third run is in its WAL only: read from it, not skipped.
    expect(outcomes.map((o) => o.out.split("\n")[1]?.split(";")[0])).toEqual([
      "2 run(s)",
      "3 run(s)",
      "3 run(s)",
    ]);
    expect([clean, killed, noShm].map((p) => readdirSync(dirname(p)).sort())).toEqual(before);
  }, 60_000);
});

describe("mm report never opens the journal for writing", () => {
  it("reads a current journal in place on a read-only connection; the file and its WAL stay as they were", async () => {
    const path = killedJournal(true);
    const files = [path, `${path}-wal`].map((f) => readFileSync(f));
    const reader = await openJournalReader(path);
    expect(reader.copied).toBe(false);
    expect(reader.db.readonly).toBe(true);
    expect(() => reader.db.exec("DELETE FROM runs")).toThrow(/readonly/);
    reader.close();
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: () => undefined, env: {}, cwd: "/" };
    expect(await reportCommand.run(["--journal", path], io)).toBe(0);
    expect(out.join("")).toContain("3 run(s)");
    expect([path, `${path}-wal`].map((f) => readFileSync(f).equals(files.shift() as Buffer))).toEqual([
      true,
      true,
    ]);
  });

  it("reads a journal of an older schema from a migrated private copy, leaving the original at its version", async () => {
    const path = journalPath();
    openJournalDb(path, { migrations: MIGRATIONS.slice(0, 2) }).close();
    const original = readFileSync(path);
    const reader = await openJournalReader(path);
    expect(reader.copied).toBe(true);
    expect(Number(reader.db.pragma("user_version", { simple: true }))).toBe(SCHEMA_VERSION);
    const copyDir = dirname(reader.db.name);
    expect(copyDir).not.toBe(dirname(path));
    reader.close();
    expect(existsSync(copyDir)).toBe(false);
    expect(readFileSync(path).equals(original)).toBe(true);
    rmSync(`${path}-wal`, { force: true });
  });
});
