import type { BookCounters, BookState, BookStateEvent } from "../../book/book-state.js";
import type { BookView } from "../../book/order-book.js";
import type { Clock } from "../../core/clock.js";
import type { EngineStatus } from "../../engine/engine-api.js";
import type { RateLimitState } from "../../exchange/rate-limit-state.js";
import type { TokenAccount } from "../../execution/inventory-math.js";
import type { BucketSnapshot } from "../../execution/rate-budget.js";
import type { GatewayCounters } from "../../gateway/counters.js";
import type { MarketLabels } from "./market-labels.js";

/** What the metrics read of a BookTracker (the tracker itself fits). */
export interface BookTrackerLike {
  tokens(): string[];
  state(tokenId: string): BookState | undefined;
  book(tokenId: string): BookView | undefined;
  /** Whether the token's book was retired for good (its market settled): it has no series then. */
  retired?(tokenId: string): boolean;
  /** Tokens whose subscription the server refused for good: untracked, so not quoted (refuse). */
  refused?(): readonly string[];
  readonly counters: Readonly<BookCounters>;
  onState(fn: (e: BookStateEvent) => void): () => void;
  onBook(fn: (book: BookView) => void): () => void;
}

/** One token's account as the engine keeps it (position, cost basis, realised PnL, fees). */
export interface EngineAccount {
  readonly tokenId: string;
  readonly account: TokenAccount;
  /**
   * The engine's mark of the token (micro-USDC: the mid rounded down, or a resolved market's payout),
   * the one its total PnL uses; undefined when it has none.
   */
  readonly markMicro?: number | undefined;
}

/**
 * What the metrics read of the engine (TradingEngine fits): liveOrders gives per-market order counts,
 * accounts the per-token positions and per-market PnL (read at scrape time from the engine's own
 * inventory, so the metrics keep no copy of the session's fills).
 */
export interface EngineLike {
  status(): EngineStatus;
  liveOrders?(): readonly { tokenId: string; state: string }[];
  accounts?(): readonly EngineAccount[];
}

/** A RateBudget as metrics see it. */
export interface RateBudgetLike {
  snapshot(now: number): BucketSnapshot[];
}

/** The HTTP client's X-RateLimit-* memory (ExchangeHttpClient.rateLimits fits). */
export interface RateLimitsLike {
  entries(): ReadonlyMap<string, RateLimitState>;
}

/** The HTTP client's estimate of the exchange's clock (ExchangeHttpClient.serverClock fits). */
export interface ServerClockLike {
  /** Exchange time minus our wall clock, ms; undefined until an answer carried X-Server-Time. */
  readonly offsetMs: number | undefined;
}

/** The WebSocket gateways the metrics know. */
export type GatewayName = "market" | "user";

/**
 * Everything read at scrape time rather than pushed: gauges of current state and counters kept by
 * the components themselves (monotonic numbers turned into Prometheus counters by their increase).
 */
export interface Sources {
  readonly trackers: Set<BookTrackerLike>;
  readonly gateways: Map<GatewayName, { readonly counters: GatewayCounters }>;
  readonly budgets: Set<RateBudgetLike>;
  readonly rateLimits: Set<RateLimitsLike>;
  engine: EngineLike | undefined;
  serverClock: ServerClockLike | undefined;
}

/** Shared state of the metric families and their adapters. */
export interface MetricsContext {
  readonly clock: Clock;
  readonly labels: MarketLabels;
  readonly sources: Sources;
  readonly deltas: DeltaTracker;
}

/** An empty set of sources. */
export function emptySources(): Sources {
  return {
    trackers: new Set(),
    gateways: new Map(),
    budgets: new Set(),
    rateLimits: new Set(),
    engine: undefined,
    serverClock: undefined,
  };
}

/**
 * Turns monotonic numbers kept elsewhere (BookCounters, GatewayCounters) into counter increments:
 * remembers the last value seen per (source, key) and returns the increase since. A source that
 * goes backwards (replaced, reset) restarts from its new value without a negative step.
 */
export class DeltaTracker {
  readonly #last = new WeakMap<object, Map<string, number>>();

  /** The increase of `value` since the last call with the same source and key (0 the first time for 0). */
  step(source: object, key: string, value: number): number {
    let m = this.#last.get(source);
    if (m === undefined) {
      m = new Map();
      this.#last.set(source, m);
    }
    const prev = m.get(key) ?? 0;
    m.set(key, value);
    return value > prev ? value - prev : 0;
  }
}

/**
 * The mid of a token in micro-units from the first watched tracker that holds a two-sided book that
 * is not resyncing; undefined otherwise.
 */
export function midMicroOf(sources: Sources, tokenId: string): number | undefined {
  for (const t of sources.trackers) {
    const book = t.book(tokenId);
    if (book === undefined) continue;
    if (t.state(tokenId)?.status === "resyncing") return undefined;
    const bid = book.bestBid();
    const ask = book.bestAsk();
    return bid === undefined || ask === undefined ? undefined : (bid.price + ask.price) / 2;
  }
  return undefined;
}

/** The watched engine's token accounts (none before an engine is watched). */
export function accountsOf(sources: Sources): readonly EngineAccount[] {
  return sources.engine?.accounts?.() ?? [];
}

/** Micro-units to whole units, for export only (Prometheus samples are floats by definition). */
export function fromMicro(micro: number | bigint): number {
  return Number(micro) / 1_000_000;
}
