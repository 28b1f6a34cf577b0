import type { PlaceOrderRequest } from "../core/types.js";
import type { CancelResult, OrderFill } from "../exchange/assumptions.js";
import type { RequestGate } from "../exchange/caller.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { CancelAllResult, Market, Order, TradeRecord } from "../exchange/types.js";
import type { ClientIdSearch, ReconcileSource, TimeWindow } from "../execution/reconcile-run.js";
import { recordPayouts } from "./markets.js";
import type {
  ExchangePort,
  ListedMarketStatus,
  MarketRead,
  MarketRecordStatus,
  PositionsAt,
  UnreadableListing,
} from "./ports.js";
import { OtherMarketRecord } from "./read-failures.js";

/** The most markets one GET /api/markets asks for (the mock's cap; the spec shows no paging). */
const LIST_LIMIT = 500;

/** How far back the history is searched for clientOrderIds without a window (newest first, assumed). */
const HISTORY_PAGES = 5;

/**
 * How many pages of 200 a search within a window reads at most: the window is paged to its end (the
 * search is then complete whatever the page order), up to this bound, which keeps one search from
 * reading a busy wallet's history without end; reaching it is reported (ClientIdSearch.complete).
 */
export const WINDOW_PAGES = 25;

/**
 * The ExchangePort (and the reconciler's ReconcileSource) over the HTTP client: what the live
 * daemon and paper mode plug into the engine. The backtest plugs in the simulated venue instead.
 */
export class HttpExchange implements ExchangePort, ReconcileSource {
  readonly #client: ExchangeHttpClient;
  readonly #markets: ExchangeHttpClient;

  /**
   * @param markets the client of the public market reads (marketRecord, listedMarkets), when not
   *   `client`: a keyless one after a start whose market reads the exchange refused to the key for a
   *   scope (marketsAtStart). It keeps its own pacing (gateRequests gates `client` only), and its
   *   own circuit breaker, which the orders do not share: its reads may be its half-open probe
   *   (MarketRead.neverProbe is for a breaker the cancels share; on one only these reads use, the
   *   half-open state would never end).
   */
  constructor(client: ExchangeHttpClient, markets?: ExchangeHttpClient) {
    this.#client = client;
    this.#markets = markets ?? client;
  }

  /** Whether a market read may not be the half-open probe: its breaker is the orders' one. */
  #neverProbe(asked: boolean): { neverProbe?: true } {
    return asked && this.#markets === this.#client ? { neverProbe: true } : {};
  }

  place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    return this.#client.orders.place(req);
  }

  cancel(orderId: string): Promise<CancelResult> {
    return this.#client.orders.cancel(orderId);
  }

  cancelAll(marketId?: string): Promise<CancelAllResult> {
    return this.#client.orders.cancelAll(marketId);
  }

  openOrders(): Promise<Order[]> {
    return this.#client.orders.open();
  }

  order(orderId: string): Promise<Order> {
    return this.#client.orders.get(orderId);
  }

  /**
   * Orders carrying these clientOrderIds, from GET /api/orders/history (the spec has no lookup by
   * clientOrderId). With a `window` only the orders created in it are listed (`from`, `to`), paged
   * to its end (at most WINDOW_PAGES pages of 200), so the search does not depend on the order the
   * pages come in, which the spec does not show; without one, the first HISTORY_PAGES pages (newest
   * first, assumed). It stops once every wanted id was seen (counted by id: a duplicate record must
   * not end it early); `complete` is false when the page bound stopped it first, and `resume` is then
   * the next page's cursor: passed back as `resume` (with the same window), the search reads on from
   * there (the spec's cursor is a keyset over createdAt and id, so it stays valid over a past window).
   */
  async ordersByClientId(
    clientOrderIds: readonly string[],
    window?: TimeWindow,
    resume?: string,
  ): Promise<ClientIdSearch> {
    const wanted = new Set(clientOrderIds);
    const seen = new Set<string>();
    const found: Order[] = [];
    const maxPages = window === undefined ? HISTORY_PAGES : WINDOW_PAGES;
    let pages = 0;
    const query = {
      limit: 200,
      ...(window === undefined
        ? {}
        : { from: new Date(window.fromMs).toISOString(), to: new Date(window.toMs).toISOString() }),
      ...(resume === undefined ? {} : { cursor: resume }),
    };
    for await (const page of this.#client.orders.historyPages(query)) {
      for (const o of page.orders) {
        if (o.clientOrderId === undefined || !wanted.has(o.clientOrderId)) continue;
        found.push(o);
        seen.add(o.clientOrderId);
      }
      if (seen.size === wanted.size) break;
      // The bound reached with a page still to come: what is unseen may be on it.
      if (++pages >= maxPages && page.nextCursor !== null) {
        return { orders: found, complete: false, resume: page.nextCursor };
      }
    }
    return { orders: found, complete: true };
  }

  async trades(opts: {
    limit?: number;
    cursor?: string;
  }): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> {
    const page = await this.#client.me.trades({ ...opts });
    return { trades: page.trades, nextCursor: page.nextCursor ?? null };
  }

  async positions(): Promise<{ tokenId: string; quantity: string }[]> {
    return (await this.#client.me.positions()).map((p) => ({ tokenId: p.tokenId, quantity: p.quantity }));
  }

  /**
   * GET /api/platform/status's `frozen`. The spec lists the endpoint but shows no payload; the
   * platform_status push is "a passthrough of the status producer" with an example boolean `frozen`,
   * and the same record is assumed here. An answer without a boolean `frozen` says nothing.
   */
  async platformFrozen(): Promise<boolean | undefined> {
    const s = await this.#client.platform.status();
    return typeof s.frozen === "boolean" ? s.frozen : undefined;
  }

  /**
   * GET /api/markets/{slug}: the market's status, its feeTakerBps and, once resolved, its payout
   * numerators. `read.once`: one attempt, no retry (a best-effort read); `read.neverProbe`: not
   * the half-open probe of the breaker the orders share (but once none went out for a bound).
   * @throws OtherMarketRecord when the record at the slug is another market's (a slug reused):
   *   taken as not found (isNotFound)
   */
  async marketRecord(
    market: {
      readonly marketId: string;
      readonly slug: string | undefined;
    },
    read?: MarketRead,
  ): Promise<MarketRecordStatus> {
    if (market.slug === undefined)
      throw new Error(`market ${market.marketId}: no slug to read its record by`);
    const opts = {
      ...(read?.once === true ? { maxAttempts: 1 } : {}),
      ...this.#neverProbe(read?.neverProbe === true),
    };
    const record = await this.#markets.markets.get(market.slug, opts);
    // A reused slug names another market now: not this market's record (taken as not found).
    if (record.id !== market.marketId) throw new OtherMarketRecord(market.marketId, market.slug, record.id);
    return recordStatus(record);
  }

  /**
   * GET /api/markets, up to LIST_LIMIT markets (the spec shows no paging for it; the mock's cap):
   * each market's id and what its record says. Markets past the cap, or ones the list leaves out,
   * are not in the answer: the open-market sweep reads those by slug. A record that does not read
   * is returned as unreadable rather than failing the list (listEach), and the read is made once,
   * no retry, and not as the half-open probe of the breaker the orders share (but once none went
   * out for a bound: MarketRead.neverProbe): the sweep, its only
   * reader, reads again next period.
   */
  async listedMarkets(): Promise<(ListedMarketStatus | UnreadableListing)[]> {
    const opts = { maxAttempts: 1, ...this.#neverProbe(true) };
    const listed = await this.#markets.markets.listEach({ limit: LIST_LIMIT }, opts);
    return listed.map((l) =>
      "market" in l
        ? { marketId: l.market.id, slug: l.market.slug, ...recordStatus(l.market) }
        : { marketId: l.id, unreadable: l.unreadable },
    );
  }

  /** GET /api/me/positions with its X-Server-Time (the start-up baseline's instant). */
  async positionsAt(): Promise<PositionsAt> {
    const r = await this.#client.me.positionsAt();
    return {
      positions: r.positions.map((p) => ({ tokenId: p.tokenId, quantity: p.quantity })),
      asOfMs: r.serverTimeMs,
    };
  }

  /**
   * Paces the client's requests, pages and retries included, each answer told to the gate's ticket
   * (ExchangeHttpClient.gateRequests).
   */
  gateRequests(gate: RequestGate): void {
    this.#client.gateRequests(gate);
  }

  /** GET /api/orders/{id}/fills (an adopted order's fills before this run). */
  orderFills(orderId: string): Promise<OrderFill[]> {
    return this.#client.orders.fills(orderId);
  }
}

/** What a market's record says of its status, fee and payouts (ExchangePort.marketRecord). */
function recordStatus(m: Market): MarketRecordStatus {
  const payouts = recordPayouts(m);
  const record = { status: m.status, feeTakerBps: m.feeTakerBps };
  return payouts === undefined ? record : { ...record, payouts };
}
