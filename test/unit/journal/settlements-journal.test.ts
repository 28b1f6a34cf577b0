import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readSettlements } from "../../../src/journal/settlements.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { ACCOUNT, journalPath } from "./support.js";

const YES_WINS = { "0": "1", "1": "0" };

/**
 * The journal keeps each market's settlement as the engine took it (`market_settlement`): `mm paper`
 * starts a fresh mock per run, which lists a market an earlier run saw resolve as OPEN again, and
 * settles it there again from these rows (paper-settlements.ts). Only the account's own runs count,
 * as for every restore; the payouts, once journaled, stay known even when a later row has none.
 */
describe("the journal keeps market settlements", () => {
  it("records the engine's market_settlement and reads each market's last status with its payouts", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const r1 = w.beginRun({ account: ACCOUNT, session: "s1", atMs: 1, tokens: [] });
    const rec = new JournalRecorder({
      writer: w,
      run: r1,
      clock: new SimClock(0),
      logger: memoryLogger("warn").logger,
      snapshotIntervalMs: 0,
    });
    rec.onEvent({
      type: "market_settlement",
      atMs: 5,
      marketId: "m1",
      status: "RESOLVED",
      payouts: undefined,
    });
    rec.onEvent({
      type: "market_settlement",
      atMs: 6,
      marketId: "m1",
      status: "RESOLVED",
      payouts: YES_WINS,
    });
    rec.onEvent({ type: "market_settlement", atMs: 7, marketId: "m2", status: "VOIDED", payouts: undefined });
    expect(rec.failures).toBe(0);
    w.endRun(r1, 8, "SIGTERM", 0);
    // Another account's settlement (another mock, another port) is not this account's.
    const other = w.beginRun({ account: `${ACCOUNT}-other`, session: "s2", atMs: 9, tokens: [] });
    w.settlement(other, { atMs: 10, marketId: "m3", status: "RESOLVED", payouts: YES_WINS });
    // A later run of the account sees m1 settled again (a record read without the payouts).
    const r3 = w.beginRun({ account: ACCOUNT, session: "s3", atMs: 11, tokens: [] });
    w.settlement(r3, { atMs: 12, marketId: "m1", status: "RESOLVED", payouts: undefined });

    expect(readSettlements(db, ACCOUNT)).toEqual([
      { marketId: "m1", status: "RESOLVED", payouts: YES_WINS },
      { marketId: "m2", status: "VOIDED", payouts: undefined },
    ]);
    expect(readSettlements(db, `${ACCOUNT}-other`)).toEqual([
      { marketId: "m3", status: "RESOLVED", payouts: YES_WINS },
    ]);
    db.close();
  });
});
