import type { PlaceOrderRequest } from "../core/types.js";
import type { CancelResult } from "../exchange/assumptions.js";
import type { RequestGate } from "../exchange/caller.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { CancelAllResult, Order, TradeRecord } from "../exchange/types.js";

/**
 * What the engine needs from an exchange. The HTTP client (live, paper) and the simulated venue
 * (backtest) both implement it, so the engine is the same code in every mode. Every method
 * resolves or rejects with an ExchangeError whose `outcome` says rejected / retryable / ambiguous;
 * `place` never throws for exchange reasons: it returns the three-way outcome.
 */
export interface ExchangePort {
  place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome>;
  cancel(orderId: string): Promise<CancelResult>;
  cancelAll(marketId?: string): Promise<CancelAllResult>;
  openOrders(): Promise<Order[]>;
  order(orderId: string): Promise<Order>;
  /** Recent trades of the wallet, newest first, for backfilling fills missed while disconnected. */
  trades(opts: {
    limit?: number;
    cursor?: string;
  }): Promise<{ trades: TradeRecord[]; nextCursor: string | null }>;
  positions(): Promise<{ tokenId: string; quantity: string }[]>;
  /**
   * positions() with the exchange-clock instant they stand for (`asOfMs`: the answer's X-Server-Time
   * live, the venue's clock at the read in a backtest; undefined when not known). The start-up
   * baseline splits fills by it; without this method (or without a time) the engine falls back to
   * its own clock after the answer.
   */
  positionsAt?(): Promise<PositionsAt>;
  /**
   * GET /api/platform/status's `frozen` flag (undefined when the answer carries none). Optional: a
   * port without it (the backtest's venue) hears of freezes from platform_status pushes only.
   */
  platformFrozen?(): Promise<boolean | undefined>;
  /**
   * A market's record as the exchange holds it now (GET /api/markets/{slug}): its status and, once
   * resolved, its payout numerators. Optional: a port without it (the backtest's venue) learns of
   * statuses from pushes and refusals only.
   */
  marketRecord?(
    market: {
      readonly marketId: string;
      readonly slug: string | undefined;
    },
    read?: MarketRead,
  ): Promise<MarketRecordStatus>;
  /**
   * The markets the exchange lists now (GET /api/markets), each with its status as its record holds
   * it: one read for the status of every quoted market (the open-market sweep,
   * open-market-sweep.ts). A quoted market the list does not show is read by `marketRecord` instead.
   * A record of the list that does not read is returned as such (UnreadableListing), not failing the
   * list. Best-effort: one attempt, not the breaker's half-open probe (as MarketRead.once and
   * neverProbe), the sweep reads again next period.
   * Optional: a port without it (the backtest's venue) has no sweep.
   */
  listedMarkets?(): Promise<readonly (ListedMarketStatus | UnreadableListing)[]>;
  /**
   * Makes every request the port sends (each page, each retry) wait on `gate` first, and tells the
   * gate's ticket of each answer (rate-limit headers, a 429's Retry-After): the engine passes its
   * rate budget's gate for the reconciler's order reads (rate-budget-wait.ts budgetGate).
   * Optional: a port that sends no HTTP requests (the backtest's venue) is not paced.
   */
  gateRequests?(gate: RequestGate): void;
}

/** How ExchangePort.marketRecord reads a record. */
export interface MarketRead {
  /**
   * One attempt, no client-level retry: a best-effort read made again next period anyway (the
   * open-market sweep's and the closed-market watch's), so a failing exchange costs the circuit
   * breaker the cancels share one failure per read, not one per attempt.
   */
  readonly once?: boolean;
  /**
   * Never the half-open probe of the circuit breaker the orders share: while it is half-open the
   * read fails fast, unsent (circuit_open), and the probe is left to a request that matters more (a
   * cancel, a reconcile read). The probe's answer decides for every request: a status read of a
   * failing public market service taken as the probe re-opened the breaker for another pause, the
   * cancels kept out with it. Unless the breaker has been half-open with no probe for a bound (the
   * breaker's neverProbeAfterMs: 60 s, or the reconcile period when longer): no request that matters more came in that long, and such
   * reads failing fast until one did (a bot with no order traffic, a reconcile period of up to an
   * hour) saw a silent pause or a reopening that late. The market status reads (the open-market
   * sweep's, the closed-market watch's) are made so; a port whose market reads share no breaker
   * with the orders may ignore it.
   */
  readonly neverProbe?: boolean;
}

/** What ExchangePort.marketRecord reads of a market's record. */
export interface MarketRecordStatus {
  readonly status: string;
  /** payoutNumerators (outcome index → numerator, decimal strings), once resolved. */
  readonly payouts?: Readonly<Record<string, string>>;
  /**
   * The market's feeTakerBps now (null: the platform default); absent when the port does not say.
   * Taken from every read of an open market's record (fee-recheck.ts takeRecordFee): the open-market
   * sweep's (made when its list shows another fee than the one held; the list's own is never taken),
   * a bad_signature's recheck, a refusal's or a drift's.
   */
  readonly feeTakerBps?: number | null;
}

/** A market of the list (ExchangePort.listedMarkets): its id and what its record says. */
export interface ListedMarketStatus extends MarketRecordStatus {
  readonly marketId: string;
  /**
   * Its slug there (the spec's Market records carry one; the HTTP port always says): a market the
   * engine holds under another slug is back under a new one (the spec derives slugs from titles),
   * and its record is read by the new one from then on (the open-market sweep). Absent: the port
   * does not say, the slug held is kept.
   */
  readonly slug?: string;
}

/**
 * A record of the list that did not read (a field missing or malformed: a new DRAFT market's, say):
 * skipped, why it did not read, and its market id when that much read.
 */
export interface UnreadableListing {
  readonly marketId: string | undefined;
  readonly unreadable: string;
}

/** The wallet's positions and the exchange's time of the read (ExchangePort.positionsAt). */
export interface PositionsAt {
  readonly positions: readonly { tokenId: string; quantity: string }[];
  readonly asOfMs: number | undefined;
}
