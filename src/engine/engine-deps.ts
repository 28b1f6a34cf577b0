import type { ConfiguredStrategy } from "../../strategies/registry.js";
import { initVolatility, type VolatilityConfig } from "../../strategies/volatility.js";
import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/errors.js";
import { isValidSessionTag } from "../core/ids.js";
import type { Fill, TokenMarket } from "../core/trading.js";
import type { PlaceOrderRequest } from "../core/types.js";
import type { RateLimitState } from "../exchange/rate-limit-state.js";
import type { PlaceIntent } from "../execution/intents.js";
import type { TokenAccount } from "../execution/inventory-math.js";
import type { QuoteTolerance } from "../execution/order-manager-diff.js";
import type { OrderQueueMetrics } from "../execution/order-queue-types.js";
import type { ReconcileSource } from "../execution/reconcile-run.js";
import type { Logger } from "../observability/logger.js";
import type { RiskGuard } from "../risk/guard.js";
import type { KillSwitchTrip } from "../risk/kill-switch.js";
import type { EngineEvent } from "./engine-events.js";
import { RENEW_LEAD_MIN_MS } from "./order-renewal.js";
import type { ExchangePort } from "./ports.js";
import { requoteIntervalProblem } from "./requote-timer.js";
import type { SignedOrders } from "./signature-check.js";

/** What to do with the wallet's open orders found at start. */
export type StartupPolicy = "cancel" | "adopt";

/**
 * Where inventory is measured from:
 * - `positions` (default): the wallet's positions read at start are the baseline; strategies and risk
 *   caps see inventory relative to it (the paper wallet starts with 5,000 shares of each token; measured
 *   absolutely, the caps would make every token reduce-only from the first tick);
 * - `zero`: absolute positions; the position check brings inventory to the wallet's holdings.
 */
export type InventoryBaseline = "positions" | "zero";

/**
 * State carried over from an earlier run of the same account (read from the journal by the app
 * layer; plain data, so the engine stays free of I/O).
 */
export interface EngineRestore {
  /**
   * Token accounts as the earlier run left them, relative to its baseline: each listed token's
   * inventory starts from its account (position, cost basis, realised PnL, fees), and the new
   * baseline is what the exchange holds minus that position. Tokens the engine does not trade are
   * ignored.
   */
  readonly accounts: ReadonlyMap<string, TokenAccount>;
  /**
   * exchange orderId → clientOrderId of orders earlier runs may have left resting: the start-up
   * reconcile recognises them as ours (and adopts them under their own id) even when the exchange's
   * record does not carry the clientOrderId.
   */
  readonly orders: ReadonlyMap<string, string>;
  /**
   * Fills earlier runs applied (so they are in `accounts`) whose fee had not settled when they
   * stopped. The reconciles page the trade history back to them and apply their fee alone, never the
   * fill again (RestoredFees); fills of tokens not in `accounts` are ignored. Default none.
   */
  readonly feePending?: readonly Fill[];
  /**
   * The fills already journaled of the orders in `orders` (so in `accounts`), by ids and time. Any
   * other trade of those orders stamped before this session is one no run applied (made while mm was
   * down): the start-up reconcile applies it (RestoredFees.takeMissed). Default none.
   */
  readonly orderFills?: readonly {
    readonly tradeId: string;
    readonly orderId: string;
    readonly tsMs: number;
  }[];
  /** When the oldest of `orders` was placed (epoch ms): how far back that search pages trades. */
  readonly ordersSinceMs?: number | undefined;
  /**
   * The token of each of `orders` (from the journal's intent): their trades map to it without
   * reading the order, which the exchange may have forgotten; a fill of one on a token the engine
   * does not trade is handed to the journal alone (`restored_fill`). Default none.
   */
  readonly orderTokens?: ReadonlyMap<string, string>;
  /**
   * clientOrderId → placements earlier runs sent without a definite answer (killed with the request
   * on the wire, or answered ambiguously): the start-up reconcile looks them up by clientOrderId
   * (the order history); one found joins `orders` (its token and placement time with it), so its
   * fills made while mm was down are applied, and each answer is reported (`placements_resolved`) for
   * the journal. Default none.
   */
  readonly unanswered?: ReadonlyMap<string, { readonly tokenId: string; readonly atMs: number }>;
  /**
   * The drawdown kill switch's trip when the last run of the account ended with it tripped and not
   * re-armed: the engine starts tripped (quoting nothing) until `rearmKillSwitch`. Default none.
   */
  readonly killSwitch?: KillSwitchTrip;
  /**
   * The drawdown from its peak the kill switch had reached when the account's last run last
   * journaled it, re-armed since any trip: the new run starts with that much of the limit used
   * (DrawdownKillSwitch.carry). Ignored when `killSwitch` holds a trip. Default none (0).
   */
  readonly carriedDrawdown?: { readonly drawdownMicro: bigint };
  /**
   * Each token's last mark an earlier run journaled (micro-USDC: its last mid, or a payout): a
   * restored position in a market listed settled at start without its payouts is marked at it
   * until they are read (its book is never watched). Other tokens wait for their book's mid.
   * Default none.
   */
  readonly marks?: ReadonlyMap<string, number>;
  /**
   * marketId → when an earlier run first read the settled market's record for its payouts (epoch
   * ms, the `payout_reads_started` events journaled): its day of reads goes on from there instead
   * of starting again (a crash-looping daemon read for ever). Default none.
   */
  readonly payoutReadsSince?: ReadonlyMap<string, number>;
  /**
   * marketId → the slugs earlier runs saw the market leave (journaled `market_slug` events): a
   * market list showing the market under one of them again is taken only once its record by that
   * slug reads with the market's id (SweepSlugs), not renamed back on a stale list's word. Default none.
   */
  readonly slugsLeft?: ReadonlyMap<string, readonly string[]>;
}

/** Nothing carried over: a first run. */
export const NO_RESTORE: EngineRestore = { accounts: new Map(), orders: new Map() };

/** Engine settings; every field but `session` has a default (see resolveEngineOptions). */
export interface EngineOptions {
  /** Session tag of this run (1–16 lowercase alphanumerics), part of every clientOrderId. */
  readonly session: string;
  /** When a live quote is close enough to stay. Default { priceTicks: 1, sizeFraction: 0.1 }. */
  readonly tolerance?: QuoteTolerance;
  /** Default `cancel`. */
  readonly startupPolicy?: StartupPolicy;
  /** Default `positions`. */
  readonly inventoryBaseline?: InventoryBaseline;
  /** Periodic REST reconcile, ms. Default 30 000. */
  readonly reconcileIntervalMs?: number;
  /** Delay that gathers triggers (ambiguous answers, reconnects) into one reconcile, ms. Default 250. */
  readonly reconcileDebounceMs?: number;
  /** Re-check after a reconcile left unknown orders unresolved, ms. Default 2 000. */
  readonly reconcileRetryMs?: number;
  /**
   * A position drift is corrected only once first seen this long ago (and unchanged since), ms:
   * longer than a fill's settlement, which the positions read waits for. Default 30 000.
   */
  readonly reconcileDriftSettleMs?: number;
  /**
   * How often market statuses are read for a change no push told, ms: the open-market sweep's read
   * of the quoted markets' statuses (open-market-sweep.ts), the closed-market watch's record reads
   * (closed-market-watch.ts) and a refusal's cool-down (market-refusals.ts).
   * Default 60 000.
   */
  readonly marketRecheckMs?: number;
  /**
   * Period of the time-driven requote, ms: tokens whose last quoting step read the clock are
   * stepped again this often without an event (requote-timer.ts); 0 = on events alone, else 100 ms
   * to an hour (requoteIntervalProblem, the daemon's rule). Default 1 000.
   */
  readonly requoteIntervalMs?: number;
  /**
   * A strategy call taking longer than this (ms, on the clock's monotonic reading) is slow: counted
   * (strategy_slow) and warned of at most once a minute per strategy (strategy-health.ts); its
   * quotes stand. An integer in [1, 60 000]. Default 50.
   */
  readonly strategySlowMs?: number;
  /**
   * The on-chain lifetime the signer gives each order, seconds (signing.orderExpirySeconds): resting
   * quotes are replaced `orderRenewLeadMs` before it ends (order-renewal.ts). 0 (default): orders
   * do not expire, nothing is replaced for its age.
   */
  readonly orderExpirySeconds?: number;
  /** How long before an order's expiry it is replaced, ms (renewLeadMs). Default 5 000. */
  readonly orderRenewLeadMs?: number;
  /** An unknown placement not found after this long is taken as never placed (ms). Default 30 000. */
  readonly unknownGraceMs?: number;
  /** Trades older than (last reconcile − this) are not paged again, ms. Default 120 000. */
  readonly tradeLookbackMs?: number;
  /** Terminal orders are forgotten this long after their last change, ms. Default 600 000. */
  readonly pruneAfterMs?: number;
  /** The partner's rateLimitPerMin (scales the wallet buckets). Default 600. */
  readonly rateLimitPerMin?: number;
  /** Order-queue tuning (see OrderQueueOptions / RateBudgetOptions). */
  readonly queue?: {
    readonly concurrency?: number;
    readonly shedHorizonMs?: number;
    readonly calmUrgencyTicks?: number;
    readonly maxCancelAttempts?: number;
    readonly defaultRetryAfterMs?: number;
    readonly cancelAllAvailable?: boolean;
    readonly marginMs?: number;
    readonly ipLimitFactor?: number;
  };
  /** σ estimator; fields left out take DEFAULT_VOLATILITY's. */
  readonly volatility?: Partial<VolatilityConfig>;
  /** What an earlier run left (the journal). Default NO_RESTORE. */
  readonly restore?: EngineRestore;
  /**
   * Whether the market data shows our own resting orders. Live and paper: yes (default), the
   * exchange's book holds them, so the strategy, σ and the PnL mark read the book without them
   * (bookWithout). A backtest's recorded or synthetic frames show only the market: taking our
   * orders out of them again would remove other traders' liquidity at our prices.
   */
  readonly feedShowsOwnOrders?: boolean;
}

/** Everything createEngine needs; the ports decide the mode (live, paper, backtest). */
export interface EngineDeps {
  readonly clock: Clock;
  /** Orders and reads: HttpExchange (live, paper) or a venue adapter (backtest). */
  readonly exchange: ExchangePort & ReconcileSource;
  /**
   * Builds and signs the request of a placement (see intent-signer.ts); called just before sending,
   * with the token's market as the engine holds it then (its feeTakerBps re-read after a
   * `bad_signature`: fee-recheck.ts).
   */
  readonly sign: (intent: PlaceIntent, market?: TokenMarket) => Promise<PlaceOrderRequest>;
  /**
   * The orders `sign` signed (intentSigner's `signed` option, the same object): a `bad_signature`
   * reply is compared with them and its cause logged (signature-check.ts). Absent: the cause is
   * logged without a comparison.
   */
  readonly signedOrders?: SignedOrders;
  /** Every token the engine may quote or hold (both outcomes of each market). */
  readonly markets: readonly TokenMarket[];
  /** The token's configured strategy; undefined = tracked (fills, risk) but never quoted. */
  readonly strategyFor: (market: TokenMarket) => ConfiguredStrategy | undefined;
  readonly risk: RiskGuard;
  readonly logger: Logger;
  readonly options: EngineOptions;
  /** Receives every engine event (metrics, journal, tests); called synchronously, must be cheap. */
  readonly listener?: (event: EngineEvent) => void;
  /** X-RateLimit-* state per endpoint (ExchangeHttpClient.rateLimit), to keep the buckets in step. */
  readonly rateLimitState?: (endpoint: string) => RateLimitState | undefined;
  readonly queueMetrics?: OrderQueueMetrics;
}

/** The σ estimator's settings where the engine options leave them out. */
export const DEFAULT_VOLATILITY: VolatilityConfig = { halfLifeMs: 60_000, minSamples: 20, maxGapMs: 300_000 };

/** EngineOptions with every default filled in. */
export type ResolvedEngineOptions = Required<Omit<EngineOptions, "queue" | "volatility">> & {
  readonly volatility: VolatilityConfig;
  readonly queue: NonNullable<EngineOptions["queue"]>;
};

/**
 * Fills in defaults and validates. Throws ValidationError `engine_options_invalid`, or
 * `volatility_config_invalid` naming `volatility.<field>`.
 * @example resolveEngineOptions({ session: "a1" }).reconcileIntervalMs // 30000
 */
export function resolveEngineOptions(o: EngineOptions): ResolvedEngineOptions {
  if (!isValidSessionTag(o.session)) {
    throw new ValidationError("engine_options_invalid", "session: 1-16 lowercase alphanumerics", {
      session: o.session,
    });
  }
  const r: ResolvedEngineOptions = {
    session: o.session,
    tolerance: o.tolerance ?? { priceTicks: 1, sizeFraction: 0.1 },
    startupPolicy: o.startupPolicy ?? "cancel",
    inventoryBaseline: o.inventoryBaseline ?? "positions",
    reconcileIntervalMs: o.reconcileIntervalMs ?? 30_000,
    reconcileDebounceMs: o.reconcileDebounceMs ?? 250,
    reconcileRetryMs: o.reconcileRetryMs ?? 2_000,
    reconcileDriftSettleMs: o.reconcileDriftSettleMs ?? 30_000,
    marketRecheckMs: o.marketRecheckMs ?? 60_000,
    requoteIntervalMs: o.requoteIntervalMs ?? 1_000,
    strategySlowMs: o.strategySlowMs ?? 50,
    orderExpirySeconds: o.orderExpirySeconds ?? 0,
    orderRenewLeadMs: o.orderRenewLeadMs ?? RENEW_LEAD_MIN_MS,
    unknownGraceMs: o.unknownGraceMs ?? 30_000,
    tradeLookbackMs: o.tradeLookbackMs ?? 120_000,
    pruneAfterMs: o.pruneAfterMs ?? 600_000,
    rateLimitPerMin: o.rateLimitPerMin ?? 600,
    queue: o.queue ?? {},
    volatility: { ...DEFAULT_VOLATILITY, ...o.volatility },
    restore: o.restore ?? NO_RESTORE,
    feedShowsOwnOrders: o.feedShowsOwnOrders ?? true,
  };
  const positive = {
    reconcileIntervalMs: r.reconcileIntervalMs,
    reconcileRetryMs: r.reconcileRetryMs,
    rateLimitPerMin: r.rateLimitPerMin,
    marketRecheckMs: r.marketRecheckMs,
  };
  for (const [field, v] of Object.entries(positive)) {
    if (!(v > 0) || !Number.isFinite(v)) {
      throw new ValidationError("engine_options_invalid", `${field}: must be a positive number`, {
        [field]: v,
      });
    }
  }
  const every = r.requoteIntervalMs;
  const problem = requoteIntervalProblem(every);
  if (problem !== undefined) {
    throw new ValidationError("engine_options_invalid", `requoteIntervalMs: ${problem}`, {
      requoteIntervalMs: every,
    });
  }
  const whole = { orderExpirySeconds: r.orderExpirySeconds, orderRenewLeadMs: r.orderRenewLeadMs };
  for (const [field, v] of Object.entries(whole)) {
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new ValidationError("engine_options_invalid", `${field}: must be an integer ≥ 0`, { [field]: v });
    }
  }
  const slow = r.strategySlowMs;
  if (!Number.isSafeInteger(slow) || slow < 1 || slow > 60_000) {
    throw new ValidationError("engine_options_invalid", "strategySlowMs: must be an integer in [1, 60000]", {
      strategySlowMs: slow,
    });
  }
  const settle = r.reconcileDriftSettleMs;
  if (!(settle >= 0) || !Number.isFinite(settle)) {
    throw new ValidationError("engine_options_invalid", "reconcileDriftSettleMs: must be a number ≥ 0", {
      reconcileDriftSettleMs: settle,
    });
  }
  try {
    initVolatility(r.volatility);
  } catch (err) {
    // Named as the config names it (engine.volatility.<field> in a backtest config).
    if (err instanceof ValidationError)
      throw new ValidationError(err.code, `volatility.${err.message}`, err.details);
    throw err;
  }
  return r;
}
