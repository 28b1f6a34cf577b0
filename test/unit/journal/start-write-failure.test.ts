import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { ConfigError } from "../../../src/config/errors.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { journalPath } from "./support.js";

/*
 * Review 16 (journal). openDaemonJournal turns a file that cannot be opened into a ConfigError on
 * journal.path (exit 2, "config error: journal.path: cannot open the journal at <path>: …"), but
 * only the open itself is wrapped: the start-up writes after it (the run row in beginRun, the
 * restore rows) throw SQLite's own error. So a journal another connection keeps write-locked for
 * more than the start's 5 s (an operator's sqlite3 shell with an open transaction, a VACUUM), or a
 * full disk (reproduced by hand on a 600 KB tmpfs: `SqliteError SQLITE_FULL database or disk is
 * full`, thrown by beginRun), ends `mm run` with exit 1 and
 * "mm run: unexpected error: database is locked" — neither the journal nor its path is named, and
 * the exit code says "unexpected" where a file the operator must fix is the cause.
 */

const T0 = Date.UTC(2025, 5, 1, 12);

describe("journal review: a start-up write that fails names the journal", () => {
  it("a journal write-locked by another connection through the start's wait is an error naming journal.path and the file", () => {
    const path = journalPath();
    const seed = openJournalDb(path);
    new JournalWriter(seed).beginRun({ account: "a", session: "s1", atMs: T0 - 1_000, tokens: [] });
    seed.close();

    const other = new BetterSqlite3(path);
    other.exec("BEGIN IMMEDIATE"); // e.g. `sqlite3 journal.sqlite` then BEGIN IMMEDIATE, left open
    let thrown: unknown;
    try {
      openDaemonJournal(
        { path, snapshotIntervalMs: 0, sync: "normal", retentionDays: 0 },
        {
          account: "a",
          session: "s2",
          tokens: [],
          clock: new SimClock(T0),
          logger: createLogger({ level: "info", pretty: false, destination: collectingStream() }),
        },
      ).close();
    } catch (err) {
      thrown = err;
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const lines = (thrown as ConfigError).lines().join("\n");
    expect(lines).toContain("journal.path");
    expect(lines).toContain(path);
  }, 15_000);
});
