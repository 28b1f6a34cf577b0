import { ValidationError } from "../core/errors.js";
import {
  type MarketTrade,
  marketList,
  marketTrades,
  type OrderbookSnapshot,
  orderbook,
  type PricePoint,
  priceHistory,
} from "./assumptions.js";
import type { ExchangeCaller } from "./caller.js";
import type { QueryParams } from "./paths.js";
import { normaliseMarket } from "./records.js";
import type { Market } from "./types.js";
import { listOf } from "./validate.js";

/** How one read is made. */
export interface ReadOptions {
  /** Attempts at most (CallSpec.maxAttempts): 1 for a best-effort read made again later anyway. */
  readonly maxAttempts?: number;
  /** Not the circuit breaker's half-open probe, unless overdue (CallSpec.neverProbe). */
  readonly neverProbe?: boolean;
  /** Time allowed for each attempt, ms, in place of the client's (CallSpec.timeoutMs). */
  readonly timeoutMs?: number;
}

/**
 * A record of GET /api/markets as `listEach` reads it: the market, or why it did not read (a field
 * missing or malformed), with its `id` when that much is there.
 */
export type MarketListing =
  | { readonly market: Market }
  | { readonly unreadable: string; readonly id: string | undefined };

/**
 * Public market reads. The root detail is keyed by slug (breaking change of 2026-05-16); the
 * sub-resources (orderbook, trades, price history) by symbol. Query parameters of these reads are not
 * shown in the spec, so they are passed through as given.
 */
export class MarketsApi {
  readonly #caller: ExchangeCaller;

  constructor(caller: ExchangeCaller) {
    this.#caller = caller;
  }

  /**
   * GET /api/markets (a bare list or `{markets: [...]}`: marketList, assumptions.ts).
   * @example const open = (await client.markets.list()).filter((m) => m.status === "OPEN");
   */
  list(query: QueryParams = {}): Promise<Market[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/markets",
      query,
      parse: marketList,
    });
  }

  /**
   * GET /api/markets, each record read on its own: one that does not read is returned as such
   * rather than failing the whole list (the list still fails when it is not a list). For a reader
   * that needs some markets of the list, not every one (a new market's malformed record, a DRAFT
   * say, must not hide the statuses of the others).
   */
  listEach(query: QueryParams = {}, opts: ReadOptions = {}): Promise<MarketListing[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/markets",
      query,
      parse: (body, path) => listOf(body, "markets", path, listing),
      ...opts,
    });
  }

  /** GET /api/markets/{slug}. */
  get(slug: string, opts: ReadOptions = {}): Promise<Market> {
    return this.#caller.call({
      method: "GET",
      route: "/api/markets/{slug}",
      params: { slug },
      parse: normaliseMarket,
      ...opts,
    });
  }

  /** GET /api/markets/{symbol}/orderbook. */
  orderbook(symbol: string, query: QueryParams = {}): Promise<OrderbookSnapshot> {
    return this.#caller.call({
      method: "GET",
      route: "/api/markets/{symbol}/orderbook",
      params: { symbol },
      query,
      parse: orderbook,
    });
  }

  /** GET /api/markets/{symbol}/trades. */
  trades(symbol: string, query: QueryParams = {}): Promise<MarketTrade[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/markets/{symbol}/trades",
      params: { symbol },
      query,
      parse: marketTrades,
    });
  }

  /** GET /api/markets/{symbol}/price-history. */
  priceHistory(symbol: string, query: QueryParams = {}): Promise<PricePoint[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/markets/{symbol}/price-history",
      params: { symbol },
      query,
      parse: priceHistory,
    });
  }
}

/** One record of the list: the market, or why it did not read (and its id, when a string). */
function listing(value: unknown, path: string): MarketListing {
  try {
    return { market: normaliseMarket(value, path) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
    return { unreadable: err.message, id: typeof id === "string" && id !== "" ? id : undefined };
  }
}
