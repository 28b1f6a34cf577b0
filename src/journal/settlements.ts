import type { Database } from "better-sqlite3";

/** A market an account's runs took as settled: its last status, and its payouts when ever known. */
export interface JournaledSettlement {
  readonly marketId: string;
  /** RESOLVED or VOIDED, as the engine took it. */
  readonly status: string;
  /** Outcome index → payout numerator (decimal strings); undefined when no row had them. */
  readonly payouts: Readonly<Record<string, string>> | undefined;
}

/**
 * The markets the runs of `account` (exchange base URL + wallet) journaled as settled, by market id:
 * each market's last status, with the last payouts any of its rows had (a later record read without
 * them does not forget them: payouts are set once, at the resolution). Another account's rows (another
 * exchange, or another mock port in paper mode) are not read, as for every restore.
 * @example readSettlements(db, "http://127.0.0.1:8080|0xabc") // [{ marketId, status: "RESOLVED", payouts: { "0": "1", "1": "0" } }]
 */
export function readSettlements(db: Database, account: string): JournaledSettlement[] {
  const rows = db
    .prepare(
      `SELECT s.market_id, s.status, s.payouts FROM settlements s JOIN runs r ON r.run_id = s.run_id
       WHERE r.account = ? ORDER BY s.id`,
    )
    .all(account) as { market_id: string; status: string; payouts: string | null }[];
  const out = new Map<string, JournaledSettlement>();
  for (const r of rows) {
    const payouts = r.payouts === null ? out.get(r.market_id)?.payouts : payoutsOf(r.payouts);
    out.set(r.market_id, { marketId: r.market_id, status: r.status, payouts });
  }
  return [...out.values()];
}

/** The journaled JSON as index → decimal string; undefined for anything else (never written so). */
function payoutsOf(json: string): Readonly<Record<string, string>> | undefined {
  const v: unknown = JSON.parse(json);
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const entries = Object.entries(v);
  return entries.every(([, x]) => typeof x === "string") ? (v as Record<string, string>) : undefined;
}
