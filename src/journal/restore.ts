import type { Database } from "better-sqlite3";
import type { Fill } from "../core/trading.js";
import type { Side } from "../core/types.js";
import type { TokenAccount } from "../execution/inventory-math.js";
import { type AccountRow, accountOfRow } from "./codec.js";
import { MAY_REST, UNCLEAN_RUN } from "./may-rest.js";
import {
  type CarriedDrawdown,
  type RestoredTrip,
  readCarriedDrawdown,
  readTrip,
} from "./restore-kill-switch.js";
import { readUnanswered, type UnansweredPlacement } from "./unanswered.js";

export type { CarriedDrawdown, RestoredTrip } from "./restore-kill-switch.js";
export type { UnansweredPlacement } from "./unanswered.js";

/** What the journal carries over to a new run of the same account. */
export interface JournalRestore {
  /** Each token's last journaled account (relative to its run's baseline), for Inventory.seed. */
  readonly accounts: ReadonlyMap<string, TokenAccount>;
  /**
   * Orders of earlier runs that may still rest on the exchange (accepted, never seen cancelled, not
   * filled completely, in a run that did not stop cleanly; MAY_REST): exchange orderId → clientOrderId.
   */
  readonly orders: ReadonlyMap<string, string>;
  /**
   * Fills of earlier runs (so in `accounts`) journaled without a fee: their fee had not settled when
   * the run stopped. The engine applies each fee alone once the exchange shows it (RestoredFees).
   * Only those of the last FEE_PENDING_WINDOW_MS before this run, oldest first.
   */
  readonly feePending: readonly Fill[];
  /**
   * The fills journaled (by any run of the account) of the orders in `orders`: in `accounts`
   * already. Any other trade of those orders stamped before the new run started was made while no
   * run was watching (a killed run's order filled while mm was down), and the engine applies it
   * then (RestoredFees.takeMissed).
   */
  readonly orderFills: readonly JournaledFill[];
  /**
   * When the oldest of `orders` was accepted (the journaling run's clock, epoch ms); undefined when
   * `orders` is empty. Their trades cannot be older: the start-up reconcile pages back to it.
   */
  readonly ordersSinceMs: number | undefined;
  /**
   * The token of each of `orders` (exchange orderId → tokenId), from its journaled intent: a trade
   * record names no token, and the exchange may have forgotten the order (GET /api/orders/{id} 404).
   * An order whose intent is missing has none.
   */
  readonly orderTokens: ReadonlyMap<string, string>;
  /**
   * Placements of earlier runs that did not stop cleanly sent without a definite answer (none: killed
   * with the request on the wire; or `ambiguous`), by clientOrderId (UNANSWERED). Their orderId is not
   * journaled, yet they may have rested and filled: the start-up reconcile looks them up by
   * clientOrderId and, found, treats them as `orders` (their fills made while mm was down applied).
   * `orderFills` holds every fill journaled since the oldest was sent, whatever its clientOrderId
   * (a user_fill may omit it): the search recognises one of theirs by (tradeId, orderId).
   */
  readonly unanswered: ReadonlyMap<string, UnansweredPlacement>;
  /**
   * Each token's last journaled mark (micro-USDC: the mid, or a settled market's payout, of the
   * newest account row of the account's runs that has one; a run's rows before its first mark
   * carry none). A market listed settled at start without its payouts is marked at it (its book is
   * never watched) until they are read.
   */
  readonly marks: ReadonlyMap<string, number>;
  /**
   * marketId → the earliest journaled first read of the settled market's record for its payouts
   * (epoch ms): the new run's day of reads goes on from it (ClosedMarketWatch).
   */
  readonly payoutReadsSince: ReadonlyMap<string, number>;
  /**
   * marketId → the slugs the account's runs saw the traded market leave (table `market_slugs`; its
   * last one excluded): a market list showing one again is not taken on its word (SweepSlugs).
   * Absent when none; openDaemonJournal reads it (readMarketSlugs).
   */
  readonly slugsLeft?: ReadonlyMap<string, readonly string[]>;
  /** Earlier runs of the account found in the journal. */
  readonly runs: number;
  /**
   * The drawdown kill switch's trip when the account's last journaled kill-switch row is a trip (no
   * re-arm after it, in that run or a later one): the new run starts tripped. Absent otherwise.
   */
  readonly killSwitch?: RestoredTrip;
  /**
   * The drawdown an armed kill switch had reached at the account's last PnL snapshot after its last
   * trip or re-arm: the new run starts with it used. Absent when there is none, or a trip holds.
   */
  readonly carriedDrawdown?: CarriedDrawdown;
}

/** A journaled fill of a restored order, by its ids and time. */
export interface JournaledFill {
  readonly tradeId: string;
  readonly orderId: string;
  readonly tsMs: number;
}

/**
 * How far back (before the new run's start) fills still waiting for their fee are restored. Fees
 * settle within seconds; a day covers any restart, and bounds what start-up reads and pages back to.
 */
export const FEE_PENDING_WINDOW_MS = 24 * 60 * 60_000;
/** At most this many fee-pending fills are restored (the newest ones are the likeliest to settle). */
const FEE_PENDING_MAX = 10_000;

interface PendingRow {
  readonly trade_id: string;
  readonly order_id: string;
  readonly client_order_id: string | null;
  readonly token_id: string;
  readonly side: Side;
  readonly price_micro: bigint;
  readonly size_micro: bigint;
  readonly ts_ms: bigint;
}

/**
 * Reads what a new run of `account` (exchange base URL + wallet) restores: the latest account row
 * of every token any earlier run of that account traded, the orders those runs may have left
 * behind (and the placements they sent without a definite answer), their recent fills that have no fee row yet, a kill-switch trip not re-armed since, or else
 * the drawdown the armed switch had reached. A fill and its account row commit
 * together, and so do a fee and the account after it, so a fill without a fee row is in the
 * restored account without its fee. Runs of other accounts in the same file are ignored, so one journal can serve several
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
    // Not always on the last row: a restart's restore row and its fills carry no mark until its
    // first snapshot (a crash loop may never reach one).
    const marks = db
      .prepare(
        `SELECT a.token_id, a.mark_micro FROM accounts a WHERE a.id IN (
           SELECT max(x.id) FROM accounts x JOIN runs r ON r.run_id = x.run_id
           WHERE r.account = @account AND r.run_id < @beforeRun AND x.mark_micro IS NOT NULL
           GROUP BY x.token_id)`,
      )
      .all({ account, beforeRun }) as { token_id: string; mark_micro: bigint }[];
    const orders = db
      .prepare(
        `SELECT o.order_id, o.client_order_id, o.at_ms,
                (SELECT max(i.token_id) FROM intents i WHERE i.client_order_id = o.client_order_id
                   AND i.run_id = o.run_id AND i.sent = 1) AS token_id
         FROM outcomes o JOIN runs r ON r.run_id = o.run_id
         WHERE r.account = @account AND r.run_id < @beforeRun AND ${UNCLEAN_RUN} AND ${MAY_REST}
         ORDER BY o.id`,
      )
      .all({ account, beforeRun }) as {
      order_id: string;
      client_order_id: string;
      at_ms: bigint;
      token_id: string | null;
    }[];
    const orderFills = db.prepare(
      `SELECT f.trade_id, f.order_id, f.ts_ms FROM fills f JOIN runs r ON r.run_id = f.run_id
       WHERE f.order_id = ? AND r.account = ? AND r.run_id < ?`,
    );
    const journaled: { trade_id: string; order_id: string; ts_ms: bigint }[] = [];
    for (const o of orders) {
      journaled.push(...(orderFills.all(o.order_id, account, beforeRun) as typeof journaled));
    }
    const started = db.prepare("SELECT started_at_ms FROM runs WHERE run_id = ?").get(beforeRun) as
      | { started_at_ms: bigint }
      | undefined;
    const sinceMs = started === undefined ? 0n : started.started_at_ms - BigInt(FEE_PENDING_WINDOW_MS);
    const pending = db
      .prepare(
        `SELECT * FROM (
           SELECT f.id, f.trade_id, f.order_id, f.client_order_id, f.token_id, f.side, f.price_micro,
                  f.size_micro, f.ts_ms
           FROM fills f JOIN runs r ON r.run_id = f.run_id
           WHERE f.ts_ms >= @sinceMs AND r.account = @account AND r.run_id < @beforeRun
             AND NOT EXISTS (SELECT 1 FROM fees x WHERE x.trade_id = f.trade_id AND x.order_id = f.order_id)
           ORDER BY f.ts_ms DESC, f.id DESC LIMIT @max)
         ORDER BY ts_ms, id`,
      )
      .all({ account, beforeRun, sinceMs, max: FEE_PENDING_MAX }) as PendingRow[];
    const payoutReads = db
      .prepare(
        `SELECT p.market_id, min(p.at_ms) AS at_ms FROM payout_reads p JOIN runs r ON r.run_id = p.run_id
         WHERE r.account = @account AND r.run_id < @beforeRun GROUP BY p.market_id`,
      )
      .all({ account, beforeRun }) as { market_id: string; at_ms: bigint }[];
    const trip = readTrip(db, account, beforeRun);
    const carried = trip === undefined ? readCarriedDrawdown(db, account, beforeRun) : undefined;
    const unanswered = readUnanswered(db, account, beforeRun);
    return {
      runs: Number(runs.n),
      ...{ rows, marks, orders, pending, journaled, payoutReads, trip, carried, unanswered },
    };
  });
  const { runs, rows, marks, orders, pending, journaled, payoutReads, trip, carried, unanswered } = read();
  let ordersSinceMs: number | undefined;
  for (const o of orders) {
    const at = Number(o.at_ms);
    if (ordersSinceMs === undefined || at < ordersSinceMs) ordersSinceMs = at;
  }
  return {
    accounts: new Map(rows.map((r) => [r.token_id, accountOfRow(r)])),
    marks: new Map(marks.map((r) => [r.token_id, Number(r.mark_micro)])),
    orders: new Map(orders.map((o) => [o.order_id, o.client_order_id])),
    feePending: pending.map(fillOfRow),
    orderFills: [
      ...journaled.map((f) => ({ tradeId: f.trade_id, orderId: f.order_id, tsMs: Number(f.ts_ms) })),
      ...unanswered.fills,
    ],
    ordersSinceMs,
    orderTokens: new Map(orders.flatMap((o) => (o.token_id === null ? [] : [[o.order_id, o.token_id]]))),
    unanswered: unanswered.placements,
    payoutReadsSince: new Map(payoutReads.map((p) => [p.market_id, Number(p.at_ms)])),
    runs,
    ...(trip === undefined ? {} : { killSwitch: trip }),
    ...(carried === undefined ? {} : { carriedDrawdown: carried }),
  };
}

function fillOfRow(r: PendingRow): Fill {
  return {
    tradeId: r.trade_id,
    orderId: r.order_id,
    clientOrderId: r.client_order_id ?? undefined,
    tokenId: r.token_id,
    side: r.side,
    priceMicro: Number(r.price_micro),
    sizeMicro: BigInt(r.size_micro),
    tsMs: Number(r.ts_ms),
  };
}
