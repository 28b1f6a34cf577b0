import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter, type KillSwitchRecord } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { ACCOUNT, journalPath } from "./support.js";

const TRIP: KillSwitchRecord = {
  atMs: Date.UTC(2025, 5, 1, 12),
  action: "trip",
  peakMicro: 2_000_000n,
  pnlMicro: -1_500_000n,
  drawdownMicro: 3_500_000n,
  limitMicro: 1_000_000n,
};
const REARM: KillSwitchRecord = {
  atMs: Date.UTC(2025, 5, 1, 13),
  action: "rearm",
  peakMicro: -1_600_000n,
  pnlMicro: -1_600_000n,
  drawdownMicro: 0n,
  limitMicro: 1_000_000n,
};

function begin(w: JournalWriter, account = ACCOUNT, atMs = 1): number {
  return w.beginRun({ account, session: "s1", atMs, tokens: [] });
}

describe("the journal keeps the kill switch's trips and re-arms", () => {
  it("restores the last trip of the account's earlier runs, with its figures, until a re-arm follows it", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const r1 = begin(w);
    w.killSwitch(r1, TRIP);
    w.endRun(r1, 2, "SIGTERM", 0);
    const r2 = begin(w);
    expect(readRestore(db, ACCOUNT, r2).killSwitch).toEqual({
      run: r1,
      atMs: TRIP.atMs,
      peakMicro: 2_000_000n,
      pnlMicro: -1_500_000n,
      drawdownMicro: 3_500_000n,
      limitMicro: 1_000_000n,
    });
    // Run 2 started tripped and stopped without a re-arm (it writes no row): run 3 is still tripped.
    w.endRun(r2, 3, "SIGTERM", 0);
    const r3 = begin(w);
    expect(readRestore(db, ACCOUNT, r3).killSwitch?.run).toBe(r1);
    // Run 3 is re-armed: run 4 starts armed. A later trip (run 4) holds again for run 5.
    w.killSwitch(r3, REARM);
    const r4 = begin(w);
    expect(readRestore(db, ACCOUNT, r4).killSwitch).toBeUndefined();
    expect("killSwitch" in readRestore(db, ACCOUNT, r4)).toBe(false);
    w.killSwitch(r4, { ...TRIP, atMs: TRIP.atMs + 1 });
    const r5 = begin(w);
    expect(readRestore(db, ACCOUNT, r5).killSwitch).toMatchObject({ run: r4, atMs: TRIP.atMs + 1 });
    db.close();
  });

  it("ignores another account's trips and the rows of the new run itself", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const other = begin(w, "http://127.0.0.1:2|0xdef");
    w.killSwitch(other, TRIP);
    const mine = begin(w);
    expect(readRestore(db, ACCOUNT, mine).killSwitch).toBeUndefined();
    w.killSwitch(mine, TRIP); // this run's own trip is the next run's business
    expect(readRestore(db, ACCOUNT, mine).killSwitch).toBeUndefined();
    expect(readRestore(db, "http://127.0.0.1:2|0xdef", mine + 1).killSwitch?.run).toBe(other);
    db.close();
  });

  it("the recorder journals the engine's kill_switch events as they happen", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const run = begin(w);
    const clock = new SimClock(0);
    const rec = new JournalRecorder({
      writer: w,
      run,
      clock,
      logger: memoryLogger("warn").logger,
      snapshotIntervalMs: 0,
    });
    const events: EngineEvent[] = [
      { type: "kill_switch", ...TRIP },
      { type: "kill_switch", ...REARM, atMs: REARM.atMs + 0.6 },
    ];
    for (const e of events) rec.onEvent(e);
    expect(rec.failures).toBe(0);
    expect(
      db
        .prepare(
          "SELECT run_id, at_ms, action, peak_micro, pnl_micro, drawdown_micro, limit_micro FROM kill_switch ORDER BY id",
        )
        .all(),
    ).toEqual([
      {
        run_id: BigInt(run),
        at_ms: BigInt(TRIP.atMs),
        action: "trip",
        peak_micro: 2_000_000n,
        pnl_micro: -1_500_000n,
        drawdown_micro: 3_500_000n,
        limit_micro: 1_000_000n,
      },
      {
        run_id: BigInt(run),
        at_ms: BigInt(REARM.atMs),
        action: "rearm",
        peak_micro: -1_600_000n,
        pnl_micro: -1_600_000n,
        drawdown_micro: 0n,
        limit_micro: 1_000_000n,
      },
    ]);
    rec.close();
    db.close();
  });

  it("a trip the journal could not write is said at error at once, past the write-failure log's rate limit", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const run = begin(w);
    const { logger, sink } = memoryLogger("warn");
    const rec = new JournalRecorder({
      writer: w,
      run,
      clock: new SimClock(0),
      logger,
      snapshotIntervalMs: 0,
    });
    db.close(); // every write fails from here on
    rec.onEvent({ type: "fee", atMs: 1, tokenId: "t", tradeId: "x", feeMicro: 1n } as unknown as EngineEvent);
    rec.onEvent({ type: "kill_switch", ...TRIP });
    rec.onEvent({ type: "kill_switch", ...REARM });
    const lines = sink
      .records()
      .filter((r) => Number(r.level) === 50)
      .map((r) => String(r.msg));
    // The generic line once (rate-limited), and the trip's own: a restart would start armed.
    expect(lines).toEqual([
      "journal write failed: trading goes on, but this history is not on disk",
      "kill switch trip not journaled: a restart would start with the switch armed, quoting again",
    ]);
    rec.close();
  });

  it("upgrades a file written at version 3: its runs stay, and no trip is restored from before the upgrade", () => {
    const path = journalPath();
    const v3 = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 3) });
    v3.prepare(
      "INSERT INTO runs (account, session, started_at_ms, stopped_at_ms, stop_reason, open_at_stop) VALUES (?, 'old', 1, 2, 'SIGTERM', 0)",
    ).run(ACCOUNT);
    expect(() => v3.prepare("SELECT 1 FROM kill_switch")).toThrow(/no such table/);
    v3.close();

    const db = openJournalDb(path);
    expect(Number(db.pragma("user_version", { simple: true }))).toBe(SCHEMA_VERSION);
    const w = new JournalWriter(db);
    const run = begin(w);
    expect(run).toBe(2);
    expect(readRestore(db, ACCOUNT, run)).toMatchObject({ runs: 1 });
    expect(readRestore(db, ACCOUNT, run).killSwitch).toBeUndefined();
    w.killSwitch(run, TRIP);
    expect(readRestore(db, ACCOUNT, run + 1).killSwitch?.run).toBe(run);
    db.close();
  });

  it("a daemon journal that restores a trip says so at warn, with when, the drawdown and how to re-arm", () => {
    const path = journalPath();
    const db = openJournalDb(path);
    const w = new JournalWriter(db);
    w.killSwitch(begin(w), TRIP);
    db.close();
    const { logger, sink } = memoryLogger("info");
    const settings = { path, snapshotIntervalMs: 0, sync: "normal" as const };
    const j = openDaemonJournal(settings, {
      account: ACCOUNT,
      session: "s2",
      tokens: [],
      clock: new SimClock(Date.UTC(2025, 5, 2)),
      logger,
    });
    expect(j.restore.killSwitch).toMatchObject({ drawdownMicro: 3_500_000n });
    j.close();
    const warns = sink.records().filter((r) => r.level === 40);
    expect(warns.map((r) => r.msg)).toEqual([
      `kill switch tripped in an earlier run (at 2025-06-01T12:00:00.000Z, drawdown 3.5 USDC): still tripped; re-arm with kill -USR2 ${process.pid}`,
    ]);
    expect(warns[0]).toMatchObject({ peak: "2", pnl: "-1.5", drawdown: "3.5", limit: "1", trippedInRun: 1 });

    // Without a trip to restore, nothing is said about the kill switch.
    const quiet = memoryLogger("info");
    const other = openDaemonJournal(settings, {
      account: "http://127.0.0.1:2|0xdef",
      session: "s3",
      tokens: [],
      clock: new SimClock(Date.UTC(2025, 5, 2)),
      logger: quiet.logger,
    });
    other.close();
    expect(quiet.sink.text()).not.toContain("kill switch");
  });
});
