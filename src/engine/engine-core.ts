import type { Clock } from "../core/clock.js";
import type { Intent } from "../execution/intents.js";
import type { Inventory } from "../execution/inventory.js";
import type { OrderManager } from "../execution/order-manager.js";
import type { OrderQueue } from "../execution/order-queue.js";
import type { OrderStore } from "../execution/order-store.js";
import type { RateBudget } from "../execution/rate-budget.js";
import type { ReconcileSource } from "../execution/reconcile-run.js";
import type { RestoredFees } from "../execution/restored-fees.js";
import type { Logger } from "../observability/logger.js";
import type { RiskDecision } from "../risk/decision.js";
import type { RiskGuard } from "../risk/guard.js";
import type { DecisionLog } from "./engine-decisions.js";
import type { ResolvedEngineOptions } from "./engine-deps.js";
import type { EngineEvent } from "./engine-events.js";
import type { PositionBook } from "./engine-positions.js";
import type { TokenTable } from "./engine-tokens.js";
import type { OrderRenewal } from "./order-renewal.js";
import type { ExchangePort, MarketRecordStatus } from "./ports.js";
import type { RequoteTimer } from "./requote-timer.js";
import type { SignatureCheck } from "./signature-check.js";
import type { StrategyHealth } from "./strategy-health.js";

/**
 * The engine's shared state, handed to the step functions that live in their own files (quoting,
 * queue reports, fills, reconcile). Only the engine builds it; the pieces are the execution, risk
 * and strategy objects, wired once.
 */
export interface EngineCore {
  readonly clock: Clock;
  readonly exchange: ExchangePort & ReconcileSource;
  readonly log: Logger;
  readonly options: ResolvedEngineOptions;
  readonly risk: RiskGuard;
  readonly store: OrderStore;
  readonly inventory: Inventory;
  /** Fees still to come for fills of an earlier run, already in the restored accounts. */
  readonly restored: RestoredFees;
  readonly om: OrderManager;
  readonly queue: OrderQueue;
  readonly tokens: TokenTable;
  readonly positions: PositionBook;
  readonly decisions: DecisionLog;
  /** Counts strategy failures and slow calls, and throttles their log lines (strategy-health.ts). */
  readonly strategies: StrategyHealth;
  /**
   * Tokens whose fills had a fee attached since the last drain (inventory's onFee hook): their PnL
   * and exposure totals are refreshed after the reconcile that set the fees (afterFees).
   */
  readonly feeTokens: Set<string>;
  /** The queue's local rate budget (its buckets' remaining tokens are a metric). */
  readonly budget: RateBudget;
  /** Reports an event to the listener (never throws). */
  emit(e: EngineEvent): void;
  /** Whether new quotes may be placed (after start, before stop). */
  quotingEnabled(): boolean;
  /** Schedules a quoting step for the token (coalesced). */
  requote(tokenId: string): void;
  /** Schedules a quoting step for every token. */
  requoteAll(): void;
  /** Steps again, every engine.requoteIntervalMs, the tokens whose quotes depend on time. */
  readonly requoteTimer: RequoteTimer;
  /** Replaces quotes before their on-chain expiry (signing.orderExpirySeconds). */
  readonly orderRenewal: OrderRenewal;
  /** Asks for a REST reconcile soon (debounced). */
  reconcileSoon(reason: "ambiguous" | "reconnect" | "unresolved"): void;
  /** Enqueues intents on the order queue. */
  send(intents: readonly Intent[]): void;
  /**
   * The exchange rejected a placement on the market with `market_not_open`: gates the market for a
   * cool-down (market-refusals.ts).
   */
  marketRefused(marketId: string): void;
  /**
   * The exchange rejected a placement on the market with `bad_signature`: its feeTakerBps is read
   * again (fee-recheck.ts).
   */
  signatureRefused(marketId: string): void;
  /** Explains `bad_signature` refusals against the orders as signed (signature-check.ts). */
  readonly signatures: SignatureCheck;
  /**
   * A market's record, read after a sign that it may have resolved silently (a refusal, a position
   * drift), says it is settled: taken as the push that never came (market-record-read.ts).
   */
  recordSettled(marketId: string, record: MarketRecordStatus, after: string): void;
  /**
   * A request failed with this exchange code: counted towards the error-rate halt, except
   * `exchange_unavailable`, first checked against the platform status (platform-watch.ts).
   */
  orderError(code: string): void;
  /** Acts on a decision taken on an event (wallet / market / token cancel) and logs it. */
  enforce(decision: RiskDecision | undefined): void;
}
