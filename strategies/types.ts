import type { BookStatus } from "../src/book/book-state.js";
import type { BookView } from "../src/book/order-book.js";
import type { DesiredQuote, TokenMarket } from "../src/core/trading.js";
import type { Side } from "../src/core/types.js";

/** One of our live orders on the token, as the order manager knows it. */
export interface OpenQuote {
  readonly side: Side;
  readonly level: number;
  /** Integer micro-units (0.53 → 530_000). */
  readonly priceMicro: number;
  /** Remaining size, micro-units of shares. */
  readonly sizeMicro: bigint;
}

/**
 * Everything a strategy may look at, handed over by the engine. A strategy reads nothing else: no
 * clock, no randomness, no I/O, so the live bot, paper trading and backtests run the same code.
 */
export interface StrategyContext {
  /** Tick, minimum size, fee, close time and status of the token's market. */
  readonly market: TokenMarket;
  /** The token's book, read-only. */
  readonly book: BookView;
  /** The BookTracker's status of this book. Only `synced` is quoted from. */
  readonly bookState: BookStatus;
  /** The engine's verdict that the book is safe to quote from (false when crossed or stale). */
  readonly quotable: boolean;
  /**
   * Signed position in this token, micro-units of shares (positive = long), relative to the start
   * baseline. Counts fills the exchange already reported on our orders (an order answered FILLED or
   * PARTIAL) before their user_fills arrive, as the risk guard does.
   */
  readonly inventory: bigint;
  /** Our live orders on this token. */
  readonly openQuotes: readonly OpenQuote[];
  /** The engine's clock time, epoch ms. */
  readonly nowMs: number;
  /**
   * Online σ of the mid (see volatility.ts): absolute price units (a price of 1 = 1.0) per √second
   * of elapsed time (a step of the wall clock is no interval of it); undefined until the estimator
   * has warmed up.
   */
  readonly volatility: number | undefined;
}

/**
 * A quoting strategy: validated parameters plus a pure function from context to desired quotes.
 * `quote` returns [] whenever the data does not support a price (no data → no quote).
 * @example
 * const p = bands.parseParams({ reference: "mid", bands: [{ margin: "0.01", size: "10" }] });
 * const quotes = bands.quote(ctx, p); // [{ side: "buy", level: 0, … }, { side: "sell", level: 0, … }]
 */
export interface Strategy<P> {
  readonly name: string;
  /** Validates raw JSON parameters; throws StrategyParamsError (`strategy_params_invalid`) listing each issue. */
  parseParams(raw: unknown): P;
  /** Desired quotes: integer micro prices on the tick grid within [tick, 1 − tick], bids then asks by level. */
  quote(ctx: StrategyContext, params: P): DesiredQuote[];
  /**
   * Every size the strategy quotes, each with the parameter that sets it: what the config loader
   * checks against the minimum order size of each market quoted (a quote under it is skipped, so a
   * strategy whose sizes all fall short there would never quote). Absent: not checked.
   */
  quoteSizes?(params: P): readonly QuoteSize[];
  /**
   * The most quotes the strategy asks for on one side of a token, and the parameter that sets it:
   * what the config loader checks against risk.order.maxLevels (the guard drops the farther ones on
   * every step, so such a setting could never quote as written). Absent: not checked.
   */
  levelsPerSide?(params: P): { readonly field: string; readonly levels: number };
}

/** A size a strategy quotes and the parameter that sets it ("orderSize", "bands[0].size"). */
export interface QuoteSize {
  readonly field: string;
  /** Micro-units of shares. */
  readonly sizeMicro: bigint;
}
