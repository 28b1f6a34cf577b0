import type { Database } from "better-sqlite3";
import type { TokenAccount } from "../execution/inventory-math.js";
import { type AccountRow, accountOfRow } from "./codec.js";

/** What the journal carries over to a new run of the same account. */
export interface JournalRestore {
  /** Each token's last journaled account (relative to its run's baseline), for Inventory.seed. */
  readonly accounts: ReadonlyMap<string, TokenAccount>;
  /**
   * Orders of earlier runs that may still rest on the exchange (accepted, never seen cancelled, in a
   * run that did not stop cleanly): exchange orderId → clientOrderId.
   */
  readonly orders: ReadonlyMap<string, string>;
  /** Earlier runs of the account found in the journal. */
  readonly runs: number;
}

/**
 * Reads what a new run of `account` (exchange base URL + wallet) restores: the latest account row
 * of every token any earlier run of that account traded, and the orders those runs may have left
 * behind. Runs of other accounts in the same file are ignored, so one journal can serve several
 * wallets or exchanges without mixing their PnL.
 * @example const r = readRestore(db, "https://api.example|0xabc…", runId); r.accounts.get(tokenId)?.realisedPico
 */
export function readRestore(db: Database, account: string, beforeRun: number): JournalRestore {
  const read = db.transaction(() => {
    const runs = db
      .prepare("SELECT count(*) AS n FROM runs WHERE account = ? AND run_id < ?")
      .get(account, beforeRun) as { n: bigint };
    const rows = db
      .prepare(
        `SELECT a.* FROM accounts a WHERE a.id IN (
           SELECT max(x.id) FROM accounts x JOIN runs r ON r.run_id = x.run_id
           WHERE r.account = @account AND r.run_id < @beforeRun GROUP BY x.token_id)`,
      )
      .all({ account, beforeRun }) as AccountRow[];
    const orders = db
      .prepare(
        `SELECT o.order_id, o.client_order_id FROM outcomes o JOIN runs r ON r.run_id = o.run_id
         WHERE r.account = @account AND r.run_id < @beforeRun
           AND (r.stopped_at_ms IS NULL OR r.open_at_stop <> 0)
           AND o.op = 'place' AND o.outcome = 'accepted' AND o.order_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM outcomes c WHERE c.client_order_id = o.client_order_id
                           AND c.op = 'cancel' AND c.outcome IN ('done', 'covered'))
         ORDER BY o.id`,
      )
      .all({ account, beforeRun }) as { order_id: string; client_order_id: string }[];
    return { runs: Number(runs.n), rows, orders };
  });
  const { runs, rows, orders } = read();
  return {
    accounts: new Map(rows.map((r) => [r.token_id, accountOfRow(r)])),
    orders: new Map(orders.map((o) => [o.order_id, o.client_order_id])),
    runs,
  };
}
