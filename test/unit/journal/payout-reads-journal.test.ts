import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { MIGRATIONS } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { ACCOUNT, journalPath } from "./support.js";

/**
 * A settled market's record is read for its payouts for a day from the first read. That first read
 * is journaled (`payout_reads_started`), and the account's next run goes on from the earliest one
 * (restore.payoutReadsSince): a restart, or a crash loop, no longer starts the day again.
 */
const T = Date.UTC(2025, 5, 1, 12);

describe("journal: the first payout read of each settled market", () => {
  it("the recorder journals it; restore hands back the earliest per market, of the account's runs only", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const begin = (account = ACCOUNT) => w.beginRun({ account, session: "s", atMs: T, tokens: [] });
    const r1 = begin();
    const rec = new JournalRecorder({
      writer: w,
      run: r1,
      clock: new SimClock(T),
      logger: memoryLogger("warn").logger,
      snapshotIntervalMs: 0,
    });
    rec.onEvent({ type: "payout_reads_started", atMs: T + 60_000.7, marketId: "m1" });
    rec.close();
    const other = begin("http://127.0.0.1:2|0xdef");
    w.payoutReadsStarted(other, "m1", T - 1);
    w.payoutReadsStarted(other, "m9", T);
    const r2 = begin();
    w.payoutReadsStarted(r2, "m1", T + 120_000); // a later row of the same market (journal not read, say)
    w.payoutReadsStarted(r2, "m2", T + 5_000);
    const r3 = begin();

    expect(readRestore(db, ACCOUNT, r3).payoutReadsSince).toEqual(
      new Map([
        ["m1", T + 60_000],
        ["m2", T + 5_000],
      ]),
    );
    expect(readRestore(db, ACCOUNT, r1).payoutReadsSince).toEqual(new Map());
    db.close();
  });

  it("a file at version 5 is upgraded with the table, and restores none", () => {
    const path = journalPath();
    openJournalDb(path, { migrations: MIGRATIONS.slice(0, 5) }).close();
    const db = openJournalDb(path);
    const w = new JournalWriter(db);
    const run = w.beginRun({ account: ACCOUNT, session: "s", atMs: T, tokens: [] });
    expect(readRestore(db, ACCOUNT, run).payoutReadsSince).toEqual(new Map());
    db.close();
  });
});
