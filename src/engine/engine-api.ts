import type { BookState } from "../book/book-state.js";
import type { BookView } from "../book/order-book.js";
import type { Fill } from "../core/trading.js";

/**
 * The engine as the adapters see it: the daemon and paper mode feed it from the gateway client and
 * BookTracker, the backtest runner from recorded or synthetic data on a SimClock. The same object
 * runs in every mode; it reads time only from its Clock and touches the exchange only through
 * its ExchangePort.
 */
export interface Engine {
  /**
   * Reconciles with the exchange (startup policy: cancel pre-existing orders of the wallet, or
   * adopt them), loads positions, then enables quoting. Resolves once ready.
   */
  start(): Promise<void>;
  /** A tracked book changed (snapshot, update or delta applied). */
  onBook(tokenId: string, book: BookView): void;
  /** A book's tracker state changed (synced / resyncing / stale, crossed flag). */
  onBookState(state: BookState): void;
  /** A user_fill (or a backfilled fill) of ours. */
  onFill(fill: Fill): void;
  /**
   * A market's status changed (condition_lifecycle or a REST read); `payouts` (outcome index →
   * payout numerator) when a market_resolved push carried them: the tokens are marked at them.
   */
  onMarketStatus(marketId: string, status: string, payouts?: Readonly<Record<string, string>>): void;
  /** platform_status frozen flag. */
  onPlatformStatus(frozen: boolean): void;
  /** A WebSocket reconnected: fills may have been missed, so reconcile. */
  onReconnect(): void;
  /**
   * The exchange says it ended an order (user_orders `order_cancelled`: self-trade prevention, an
   * expiry, an operator's cancel…). When it names an order tracked as resting and not being
   * cancelled by mm, a reconcile follows soon: the spec does not show the event's fields other than
   * clientOrderId, so the open-orders read settles the order's fate and fills. One pushed while its
   * placement's answer is on its way gets that reconcile when the answer makes it resting.
   */
  onOrderEnded(orderId: string | undefined, clientOrderId: string | undefined): void;
  /**
   * Stops quoting, cancels every quote (cancel-all per market, then a wallet-wide cancel-all),
   * waits for the queue to drain up to `timeoutMs`, and resolves with what is left open (0 = clean).
   */
  stop(reason: string, timeoutMs: number): Promise<StopCount>;
  /** Readiness and counts for /ready, logs and tests. */
  status(): EngineStatus;
  /**
   * Operator action: re-arms a tripped drawdown kill switch (its peak restarts at the current PnL),
   * also one tripped in an earlier run (`restore.killSwitch`), and lets every token quote again; on
   * an armed switch with a drawdown (a carried one included) it re-bases the peak the same way.
   * Reported as a `kill_switch` event (the journal keeps it). False when neither applies.
   */
  rearmKillSwitch(): boolean;
}

/**
 * What a stop left open: the count the last read of the wallet's open orders after the last cancels
 * listed (every order of the wallet, an earlier run's included), or, `believed`, when no such read
 * answered (the key cannot read them, the deadline came first), the orders this engine believes live.
 */
export interface StopCount {
  readonly openOrders: number;
  /** Set when the count is not the exchange's word but the engine's belief (no read answered). */
  readonly believed?: true;
  /**
   * With `believed`: the earlier runs' orders (the restore's) the engine holds or held, live or
   * ended (pruned since included: RestoredFees.held), by exchange id (absent when none): adopted, or
   * seen to end, they are the engine's to count, not the journal's.
   */
  readonly held?: ReadonlySet<string>;
}

export interface EngineStatus {
  readonly started: boolean;
  readonly reconciled: boolean;
  readonly quotingTokens: number;
  readonly openOrders: number;
  /**
   * Placements waiting in the order queue for the rate budget (not yet sent): with a tight budget
   * (paper's) a requote wave keeps dozens there while `openOrders` and `inFlight` read near 0.
   * Absent where no engine keeps a queue (fakes).
   */
  readonly queuedPlacements?: number;
  /**
   * Milliseconds the longest-waiting of those placements has waited (its level's first queued
   * placement: a superseding one keeps its place), 0 when none waits (OrderQueue.oldestPlacementAgeMs).
   * Absent where no engine keeps a queue (fakes).
   */
  readonly oldestPlacementAgeMs?: number;
  readonly inFlight: number;
  readonly killSwitch: boolean;
  /** Total PnL (realised + unrealised at mid) in USDC micro-units. */
  readonly pnlMicro: bigint;
  /**
   * The kill switch's peak − last observed total PnL, USDC micro-units (before any observation: the
   * drawdown carried over from an earlier run, else 0).
   */
  readonly drawdownMicro: bigint;
  /**
   * Per token, its quote levels held empty by the refused-placement back-off: a placement refused
   * outright whose level waits for the requote timer's next step (1 → 30 s, requote-timer.ts).
   * Tokens with none are absent; the whole field is absent where no engine keeps it (fakes).
   */
  readonly backedOffLevels?: ReadonlyMap<string, number>;
}
