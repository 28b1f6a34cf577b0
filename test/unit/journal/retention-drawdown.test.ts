import { describe, expect, it } from "vitest";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalPruner } from "../../../src/journal/prune.js";
import { readRestore } from "../../../src/journal/restore.js";
import { DAY_MS } from "../../../src/journal/retention.js";
import { JournalWriter, type PnlRecord } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath } from "./support.js";

/*
 * Review 16 (journal). An armed kill switch's drawdown carries over to the account's next run from
 * its newest PnL snapshot (restore-kill-switch.ts), "so restarts and crash loops do not renew the
 * limit" (README). Retention deletes every `pnl` row of reason `snapshot` older than
 * journal.retentionDays, with no exception for that newest one. With journal.snapshotIntervalMs 0
 * ("only at stop", a documented setting) a running daemon writes PnL rows only when the drawdown
 * rises by 1% of the limit: a drawdown reached early and then flat for a week is in one row, which
 * the daemon's own hourly pass deletes once it is older than the retention. If that run is then
 * killed (OOM, SIGKILL: no stop row), the next run starts with the whole limit again. The same
 * happens to a killed run's rows when another account's daemon shares the file (the default
 * journal path, two wallets on one host) and prunes them while this account is down.
 */

const T = Date.UTC(2025, 5, 1, 12);

const drawdownSnapshot = (atMs: number, drawdownMicro: bigint): PnlRecord => ({
  atMs,
  reason: "snapshot",
  pnlMicro: -drawdownMicro,
  realisedPico: 0n,
  feesPico: 0n,
  unrealisedPico: 0n,
  openOrders: 2,
  drawdownMicro,
});

describe("journal review: retention and the kill switch's carried drawdown", () => {
  it("a killed run's last drawdown survives the retention pass, so the next run still carries it", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const r1 = w.beginRun({ account: ACCOUNT, session: "s1", atMs: T, tokens: [] });
    // The drawdown rose to 0.45 USDC (a `drawdown` event's snapshot), then stayed there.
    w.pnl(r1, drawdownSnapshot(T + 60_000, 450_000n));
    expect(readRestore(db, ACCOUNT, r1 + 1).carriedDrawdown?.drawdownMicro).toBe(450_000n);

    // Eight days on, run 1 (still running, retentionDays 7) prunes; then it is killed: no stop row.
    new JournalPruner(db).pass(T + 8 * DAY_MS - 7 * DAY_MS);
    const r2 = w.beginRun({ account: ACCOUNT, session: "s2", atMs: T + 8 * DAY_MS, tokens: [] });
    expect(readRestore(db, ACCOUNT, r2).carriedDrawdown?.drawdownMicro).toBe(450_000n);
    db.close();
  });
});
