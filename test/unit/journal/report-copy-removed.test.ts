import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { MIGRATIONS } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { openJournalReader } from "../../../src/journal/open-read.js";
import { journalPath } from "./support.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../..");

/** An older mm's journal (so read from a private copy), ~32 MB, cleanly stopped: no -wal. */
function olderJournal(): string {
  const path = journalPath();
  openJournalDb(path, { migrations: MIGRATIONS.slice(0, 2) }).close();
  const raw = new BetterSqlite3(path);
  raw.exec(
    "CREATE TABLE filler (b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 32) INSERT INTO filler SELECT randomblob(1000000) FROM n",
  );
  raw.close();
  return path;
}

function privateTmp(): string {
  const tmp = mkdtempSync(join(tmpdir(), "mm-report-tmpdir-"));
  onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
  return tmp;
}

const copiesIn = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith("mm-journal-read-"));

/**
 * `mm report` reads a journal of an older schema (or one on read-only media) from a private copy "in
 * $TMPDIR, removed after" (README, `mm report`): the whole trading history, hundreds of MB for a big
 * journal. Found in review (s20): it was removed only in reader.close(), so a Ctrl-C (SIGINT) or
 * SIGTERM while the report copied or read it left the copy behind, each time.
 */
describe("mm report's private copy", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)(
    "is not left in $TMPDIR when the report is interrupted with %s, which then ends it (exit %i)",
    async (signal, status) => {
      const path = olderJournal();
      const tmp = privateTmp();
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "src/cli/main.ts", "report", "--journal", path],
        { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, stdio: "ignore" },
      );
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) =>
        child.on("exit", (code, sig) => r([code, sig])),
      );
      let interrupted = false;
      const watcher = watch(tmp, (_e, name) => {
        if (interrupted || !String(name).startsWith("mm-journal-read-")) return; // (tsx keeps its cache here too)
        interrupted = true;
        child.kill(signal); // the operator's Ctrl-C (or a stop) while the copy is made or read
      });
      const [code, sig] = await exited;

      watcher.close();
      expect(interrupted).toBe(true);
      expect(copiesIn(tmp)).toEqual([]);
      // Ended by the signal, as without a handler (a shell shows 128 + its number).
      expect({ code, sig }).toSatisfy(() => sig === signal || code === status);
    },
    30_000,
  );

  it("is removed when the process exits without closing the reader", async () => {
    const tmp = privateTmp();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/unit/journal/report-copy-exit-child.ts", olderJournal()],
      { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, stdio: "ignore" },
    );
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    expect(code).toBe(3);
    expect(copiesIn(tmp)).toEqual([]);
  }, 30_000);

  it("takes its signal handlers off once the copy is closed (a later signal has its usual effect)", async () => {
    const before = ["SIGINT", "SIGTERM", "SIGHUP", "exit"].map((e) => process.listenerCount(e));
    const reader = await openJournalReader(olderJournal());
    expect(reader.copied).toBe(true);
    expect(process.listenerCount("SIGINT")).toBe((before[0] as number) + 1);
    reader.close();
    await new Promise((r) => setImmediate(() => setImmediate(() => setImmediate(r))));
    expect(["SIGINT", "SIGTERM", "SIGHUP", "exit"].map((e) => process.listenerCount(e))).toEqual(before);
  });
});
