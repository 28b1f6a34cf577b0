import type { Clock } from "../core/clock.js";
import type { TokenAccount } from "../execution/inventory-math.js";
import type { Logger } from "../observability/logger.js";
import type { JournalWriter } from "./writer.js";

/** What the recorder reads from the engine for account rows and snapshots (TradingEngine has it). */
export interface JournalSource {
  account(tokenId: string): TokenAccount;
  accounts(): readonly { tokenId: string; account: TokenAccount; markMicro: number | undefined }[];
  /** The token's mark now (TradingEngine has it): a fill's row carries it, not the last one written. */
  markOf?(tokenId: string): number | undefined;
  /** drawdownMicro: the kill switch's peak − PnL, journaled so that the next run carries it. */
  status(): { readonly pnlMicro: bigint; readonly openOrders: number; readonly drawdownMicro?: bigint };
  /**
   * The orders the engine holds live (not terminal), by exchange orderId: how the recorder sees an
   * adopted order of an earlier run end (TradingEngine has it). Without it such orders are left for
   * the next start's check of gone orders.
   */
  liveOrders?(): readonly { readonly orderId: string | undefined; readonly clientOrderId?: string }[];
}

export interface JournalRecorderOptions {
  readonly writer: JournalWriter;
  readonly run: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Period of the PnL and inventory snapshots, ms; 0 = only at stop. */
  readonly snapshotIntervalMs: number;
  /** Accounts already in the journal for this run (its restore rows): not written again unchanged. */
  readonly restored?: ReadonlyMap<string, TokenAccount>;
  /** The marks those restore rows carry (JournalRestore.marks): later rows keep them until a new one. */
  readonly restoredMarks?: ReadonlyMap<string, number>;
  /**
   * How long a write waits for another connection's write lock, ms; while the file stays locked,
   * writes do not wait at all (LockWait). The writes run on the event loop, between the engine's
   * sends. Default DAEMON_BUSY_TIMEOUT_MS (set on the writer's connection at construction).
   */
  readonly busyTimeoutMs?: number;
  /** The journal file, for the logs. */
  readonly path?: string;
  /**
   * Orders earlier runs may have left resting (JournalRestore.orders: exchange orderId →
   * clientOrderId). Those this run adopted are journaled closed when they end (AdoptedEnds).
   */
  readonly restoredOrders?: ReadonlyMap<string, string>;
  /**
   * Placements earlier runs sent without a definite answer (JournalRestore.unanswered): the answer
   * the start-up reconcile finds for one (`placements_resolved`) is journaled in the run that sent it.
   */
  readonly unanswered?: ReadonlyMap<string, { readonly run: number; readonly marketId: string }>;
  /**
   * The journaled accounts of tokens this run does not trade (restore): the starting point of the
   * `restored_fill`s booked under such a token (ForeignFills).
   */
  readonly foreignAccounts?: ReadonlyMap<string, TokenAccount>;
}
