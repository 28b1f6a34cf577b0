import type { Database } from "better-sqlite3";
import { UNANSWERED, UNCLEAN_RUN } from "./may-rest.js";

/** A placement an earlier run sent and never got a definite answer to (UNANSWERED). */
export interface UnansweredPlacement {
  /** The run that sent it: its answer, once found, is journaled there, beside the intent. */
  readonly run: number;
  readonly tokenId: string;
  readonly marketId: string;
  /** When it was sent (the sending run's clock, epoch ms). */
  readonly atMs: number;
}

/** A journaled fill (JournalRestore.orderFills' key and stamp). */
interface FillIds {
  readonly trade_id: string;
  readonly order_id: string;
  readonly ts_ms: bigint;
}

/**
 * Margin before the oldest unanswered placement when reading their journaled fills: a fill's time is
 * the exchange's (MISSED_SEARCH_SLACK_MS in the engine).
 */
const FILL_SLACK_MS = 60_000n;

/**
 * The placements the runs of `account` before `beforeRun` that did not stop cleanly sent without a
 * definite answer (clientOrderId → placement), and every fill of the account those runs and later
 * ones journaled since the oldest of them was sent (less FILL_SLACK_MS): an ambiguous placement the
 * run's reconcile resolved may have filled while it ran. Whatever their clientOrderId: a user_fill
 * carries it only "when the matcher supplies it" (spec) and the journal keeps the frame's, so a fill
 * of one of them may be journaled without it; which orderId each placement got is known only once
 * it is found at start, and the search keys on (tradeId, orderId), so the other rows are inert.
 * Call inside readRestore's read transaction.
 * @example const { placements, fills } = readUnanswered(db, account, run);
 */
export function readUnanswered(
  db: Database,
  account: string,
  beforeRun: number,
): {
  placements: Map<string, UnansweredPlacement>;
  fills: { tradeId: string; orderId: string; tsMs: number }[];
} {
  const rows = db
    .prepare(
      `SELECT i.client_order_id, i.run_id, i.token_id, i.market_id, i.at_ms
       FROM intents i JOIN runs r ON r.run_id = i.run_id
       WHERE r.account = @account AND r.run_id < @beforeRun AND ${UNCLEAN_RUN} AND ${UNANSWERED}
       ORDER BY i.id`,
    )
    .all({ account, beforeRun }) as {
    client_order_id: string;
    run_id: bigint;
    token_id: string;
    market_id: string;
    at_ms: bigint;
  }[];
  const placements = new Map<string, UnansweredPlacement>();
  let since: bigint | undefined;
  let fromRun: bigint | undefined;
  for (const r of rows) {
    if (placements.has(r.client_order_id)) continue;
    placements.set(r.client_order_id, {
      run: Number(r.run_id),
      tokenId: r.token_id,
      marketId: r.market_id,
      atMs: Number(r.at_ms),
    });
    if (since === undefined || r.at_ms < since) since = r.at_ms;
    if (fromRun === undefined || r.run_id < fromRun) fromRun = r.run_id;
  }
  if (since === undefined || fromRun === undefined) return { placements, fills: [] };
  // Through fills_ts: no fill of these orders is older than their placement, nor journaled by a run
  // before the one that sent it.
  const found = db
    .prepare(
      `SELECT f.trade_id, f.order_id, f.ts_ms FROM fills f JOIN runs r ON r.run_id = f.run_id
       WHERE f.ts_ms >= @since AND r.account = @account AND r.run_id >= @fromRun AND r.run_id < @beforeRun`,
    )
    .all({ since: since - FILL_SLACK_MS, account, fromRun, beforeRun }) as FillIds[];
  const fills = found.map((f) => ({ tradeId: f.trade_id, orderId: f.order_id, tsMs: Number(f.ts_ms) }));
  return { placements, fills };
}
