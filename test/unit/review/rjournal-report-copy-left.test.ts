import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { MIGRATIONS } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { journalPath } from "../journal/support.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * Review (s20 journal): `mm report` reads a journal of an older schema (or one on read-only media)
 * from a private copy "in $TMPDIR, removed after" (README, `mm report`). The removal is only in
 * reader.close(); `mm report` installs no signal handler, so a Ctrl-C (SIGINT) or SIGTERM while it
 * copies or reads a big journal — the case where the copy takes long — kills it and leaves the whole
 * copy of the trading history behind in $TMPDIR, hundreds of MB each time.
 */
describe("review rjournal: mm report's private copy", () => {
  it("is not left in $TMPDIR when the report is interrupted with Ctrl-C", async () => {
    const path = journalPath();
    openJournalDb(path, { migrations: MIGRATIONS.slice(0, 2) }).close(); // an older mm's journal
    const raw = new BetterSqlite3(path);
    raw.exec(
      "CREATE TABLE filler (b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 32) INSERT INTO filler SELECT randomblob(1000000) FROM n",
    );
    raw.close(); // ~32 MB, cleanly stopped: no -wal
    const tmp = mkdtempSync(join(tmpdir(), "mm-review-tmpdir-"));
    onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/cli/main.ts", "report", "--journal", path],
      {
        cwd: ROOT,
        env: { ...process.env, TMPDIR: tmp },
        stdio: "ignore",
      },
    );
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    let interrupted = false;
    const watcher = watch(tmp, (_e, name) => {
      if (interrupted || !String(name).startsWith("mm-journal-read-")) return; // (tsx keeps its cache here too)
      interrupted = true;
      child.kill("SIGINT"); // the operator's Ctrl-C while the copy is made or read
    });
    await exited;
    watcher.close();
    expect(interrupted).toBe(true);
    expect(readdirSync(tmp).filter((f) => f.startsWith("mm-journal-read-"))).toEqual([]);
  }, 30_000);
});
