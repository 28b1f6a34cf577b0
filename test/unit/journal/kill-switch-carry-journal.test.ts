import { describe, expect, it } from "vitest";
import { openDaemonJournal } from "../../../src/app/journal.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { MIGRATIONS } from "../../../src/journal/migrations.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter, type KillSwitchRecord, type PnlRecord } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { ACCOUNT, journalPath } from "./support.js";

const T = Date.UTC(2025, 5, 1, 12);

function begin(w: JournalWriter, account = ACCOUNT): number {
  return w.beginRun({ account, session: "s1", atMs: T, tokens: [] });
}

function snapshot(atMs: number, drawdownMicro: bigint | undefined): PnlRecord {
  return {
    atMs,
    reason: "snapshot",
    pnlMicro: -(drawdownMicro ?? 0n),
    realisedPico: 0n,
    feesPico: 0n,
    unrealisedPico: 0n,
    openOrders: 0,
    drawdownMicro,
  };
}

const kill = (action: "trip" | "rearm", atMs: number): KillSwitchRecord => ({
  atMs,
  action,
  peakMicro: 0n,
  pnlMicro: -2_000_000n,
  drawdownMicro: action === "trip" ? 2_000_000n : 0n,
  limitMicro: 1_000_000n,
});

describe("an armed kill switch's drawdown carries over to the account's next run", () => {
  it("restores the drawdown of the last PnL snapshot after the last trip or re-arm", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const r1 = begin(w);
    w.pnl(r1, snapshot(T + 1_000, 300_000n));
    w.pnl(r1, snapshot(T + 2_000, 450_000n));
    const r2 = begin(w);
    expect(readRestore(db, ACCOUNT, r2).carriedDrawdown).toEqual({
      run: r1,
      atMs: T + 2_000,
      drawdownMicro: 450_000n,
    });
    // Run 2 crashed before its first snapshot: run 3 still carries run 1's.
    const r3 = begin(w);
    expect(readRestore(db, ACCOUNT, r3).carriedDrawdown?.run).toBe(r1);
    // Run 3's snapshots (the carried drawdown and what it added) are the newest.
    w.pnl(r3, snapshot(T + 3_000, 600_000n));
    expect(readRestore(db, ACCOUNT, r3 + 1).carriedDrawdown).toEqual({
      run: r3,
      atMs: T + 3_000,
      drawdownMicro: 600_000n,
    });
    db.close();
  });

  it("a trip is restored instead; a re-arm restarts it at 0, also against a snapshot of the same millisecond", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const r1 = begin(w);
    w.pnl(r1, snapshot(T + 1_000, 900_000n));
    w.killSwitch(r1, kill("trip", T + 1_500));
    w.pnl(r1, snapshot(T + 2_000, 2_000_000n));
    const r2 = begin(w);
    const tripped = readRestore(db, ACCOUNT, r2);
    expect(tripped.killSwitch?.run).toBe(r1);
    expect("carriedDrawdown" in tripped).toBe(false);
    w.pnl(r2, snapshot(T + 5_000, 2_000_000n)); // while still tripped
    w.killSwitch(r2, kill("rearm", T + 5_000));
    const r3 = begin(w);
    expect(readRestore(db, ACCOUNT, r3)).not.toHaveProperty("killSwitch");
    expect(readRestore(db, ACCOUNT, r3)).not.toHaveProperty("carriedDrawdown");
    w.pnl(r3, snapshot(T + 6_000, 100_000n));
    expect(readRestore(db, ACCOUNT, r3 + 1).carriedDrawdown?.drawdownMicro).toBe(100_000n);
    db.close();
  });

  it("nothing to carry: a drawdown of 0, a snapshot without one, another account's, the new run's own", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const other = begin(w, "http://127.0.0.1:2|0xdef");
    w.pnl(other, snapshot(T + 1_000, 800_000n));
    const r1 = begin(w);
    w.pnl(r1, snapshot(T + 1_000, 0n));
    const r2 = begin(w);
    expect(readRestore(db, ACCOUNT, r2)).not.toHaveProperty("carriedDrawdown");
    w.pnl(r2, snapshot(T + 2_000, undefined));
    w.pnl(r2, snapshot(T + 3_000, 500_000n));
    expect(readRestore(db, ACCOUNT, r2)).not.toHaveProperty("carriedDrawdown");
    expect(db.prepare("SELECT drawdown_micro FROM pnl WHERE run_id = ? ORDER BY id").all(r2)).toEqual([
      { drawdown_micro: null },
      { drawdown_micro: 500_000n },
    ]);
    db.close();
  });

  it("the recorder journals the engine's drawdown with each snapshot", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const run = begin(w);
    const rec = new JournalRecorder({
      writer: w,
      run,
      clock: new SimClock(T),
      logger: memoryLogger("warn").logger,
      snapshotIntervalMs: 0,
    });
    let drawdownMicro = 250_000n;
    rec.attach({
      account: () => {
        throw new Error("no tokens");
      },
      accounts: () => [],
      status: () => ({ pnlMicro: -drawdownMicro, openOrders: 0, drawdownMicro }),
    });
    rec.snapshot("snapshot");
    drawdownMicro = 400_000n;
    rec.snapshot("stop");
    expect(db.prepare("SELECT reason, drawdown_micro FROM pnl ORDER BY id").all()).toEqual([
      { reason: "snapshot", drawdown_micro: 250_000n },
      { reason: "stop", drawdown_micro: 400_000n },
    ]);
    rec.close();
    expect(readRestore(db, ACCOUNT, run + 1).carriedDrawdown?.drawdownMicro).toBe(400_000n);
    db.close();
  });

  it("a file written at version 4 is upgraded: its PnL rows carry nothing", () => {
    const path = journalPath();
    const v4 = openJournalDb(path, { migrations: MIGRATIONS.slice(0, 4) });
    const old = v4
      .prepare("INSERT INTO runs (account, session, started_at_ms) VALUES (?, 'old', 1) RETURNING run_id")
      .get(ACCOUNT) as { run_id: bigint };
    v4.prepare(
      `INSERT INTO pnl (run_id, at_ms, reason, pnl_micro, realised_pico, fees_pico, unrealised_pico, open_orders)
       VALUES (?, 2, 'stop', -5, '0', '0', '0', 0)`,
    ).run(old.run_id);
    v4.close();
    const db = openJournalDb(path);
    const w = new JournalWriter(db);
    const run = begin(w);
    expect(readRestore(db, ACCOUNT, run)).not.toHaveProperty("carriedDrawdown");
    expect(() => w.pnl(run, snapshot(T, -1n))).toThrow(/CHECK constraint/);
    db.close();
  });

  it("a daemon journal that carries a drawdown says so at warn, with how to re-base it", () => {
    const path = journalPath();
    const db = openJournalDb(path);
    const w = new JournalWriter(db);
    w.pnl(begin(w), snapshot(T, 450_000n));
    db.close();
    const { logger, sink } = memoryLogger("info");
    const j = openDaemonJournal(
      { path, snapshotIntervalMs: 0, sync: "normal" },
      { account: ACCOUNT, session: "s2", tokens: [], clock: new SimClock(T + 60_000), logger },
    );
    expect(j.restore.carriedDrawdown?.drawdownMicro).toBe(450_000n);
    j.close();
    const warns = sink.records().filter((r) => r.level === 40);
    expect(warns.map((r) => r.msg)).toEqual([
      `kill switch: 0.45 USDC of drawdown carried over from run 1 (as of 2025-06-01T12:00:00.000Z); re-base it to 0 with kill -USR2 ${process.pid}`,
    ]);
    expect(warns[0]).toMatchObject({ fromRun: 1, drawdown: "0.45" });
  });
});
