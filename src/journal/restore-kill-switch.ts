import type { Database } from "better-sqlite3";

/** A journaled trip of the kill switch (USDC micro-units), as a new run restores it. */
export interface RestoredTrip {
  /** The run that tripped it. */
  readonly run: number;
  readonly atMs: number;
  readonly peakMicro: bigint;
  readonly pnlMicro: bigint;
  readonly drawdownMicro: bigint;
  /** killSwitch.maxDrawdown of the run that tripped it. */
  readonly limitMicro: bigint;
}

interface KillRow {
  readonly run_id: bigint;
  readonly at_ms: bigint;
  readonly action: "trip" | "rearm";
  readonly peak_micro: bigint;
  readonly pnl_micro: bigint;
  readonly drawdown_micro: bigint;
  readonly limit_micro: bigint;
}

/**
 * The account's last kill-switch row before `beforeRun`, when it is a trip. A run that started
 * tripped and stopped without a re-arm writes no row: the trip of the run before stays the last.
 */
export function readTrip(db: Database, account: string, beforeRun: number): RestoredTrip | undefined {
  const k = db
    .prepare(
      `SELECT k.* FROM kill_switch k JOIN runs r ON r.run_id = k.run_id
       WHERE r.account = @account AND r.run_id < @beforeRun ORDER BY k.id DESC LIMIT 1`,
    )
    .get({ account, beforeRun }) as KillRow | undefined;
  if (k === undefined || k.action !== "trip") return undefined;
  return {
    run: Number(k.run_id),
    atMs: Number(k.at_ms),
    peakMicro: k.peak_micro,
    pnlMicro: k.pnl_micro,
    drawdownMicro: k.drawdown_micro,
    limitMicro: k.limit_micro,
  };
}

/** The drawdown an earlier run's armed kill switch had reached, as a new run carries it. */
export interface CarriedDrawdown {
  /** The run whose PnL snapshot journaled it. */
  readonly run: number;
  readonly atMs: number;
  readonly drawdownMicro: bigint;
}

/**
 * The drawdown of the account's newest PnL snapshot before `beforeRun` that is newer than its last
 * kill-switch row (a trip: the caller restores that instead; a re-arm: the drawdown restarted at 0,
 * and a snapshot stamped the same millisecond may predate it, so it must be later). Undefined when
 * there is none, or it is 0.
 */
export function readCarriedDrawdown(
  db: Database,
  account: string,
  beforeRun: number,
): CarriedDrawdown | undefined {
  const row = db
    .prepare(
      `SELECT p.run_id, p.at_ms, p.drawdown_micro FROM pnl p JOIN runs r ON r.run_id = p.run_id
       WHERE r.account = @account AND r.run_id < @beforeRun AND p.drawdown_micro IS NOT NULL
         AND NOT EXISTS (
           SELECT 1 FROM kill_switch k JOIN runs kr ON kr.run_id = k.run_id
           WHERE kr.account = @account AND kr.run_id < @beforeRun
             AND (k.run_id > p.run_id OR (k.run_id = p.run_id AND k.at_ms >= p.at_ms)))
       ORDER BY p.id DESC LIMIT 1`,
    )
    .get({ account, beforeRun }) as { run_id: bigint; at_ms: bigint; drawdown_micro: bigint } | undefined;
  if (row === undefined || row.drawdown_micro <= 0n) return undefined;
  return { run: Number(row.run_id), atMs: Number(row.at_ms), drawdownMicro: row.drawdown_micro };
}
