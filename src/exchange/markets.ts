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

  /** GET /api/markets/{slug}. */
  get(slug: string): Promise<Market> {
    return this.#caller.call({
      method: "GET",
      route: "/api/markets/{slug}",
      params: { slug },
      parse: normaliseMarket,
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
