import type { PlaceOrderRequest } from "../core/types.js";
import type { CancelResult } from "../exchange/assumptions.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { CancelAllResult, Order, TradeRecord } from "../exchange/types.js";
import type { ReconcileSource } from "../execution/reconcile-run.js";
import type { ExchangePort } from "./ports.js";

/** How far back the history is searched for the clientOrderIds of unresolved orders. */
const HISTORY_PAGES = 5;

/**
 * The ExchangePort (and the reconciler's ReconcileSource) over the HTTP client: what the live
 * daemon and paper mode plug into the engine. The backtest plugs in the simulated venue instead.
 */
export class HttpExchange implements ExchangePort, ReconcileSource {
  readonly #client: ExchangeHttpClient;

  constructor(client: ExchangeHttpClient) {
    this.#client = client;
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
   * Orders carrying these clientOrderIds, from the newest pages of GET /api/orders/history (the
   * spec has no lookup by clientOrderId). Unresolved orders are recent, so a few pages suffice.
   */
  async ordersByClientId(clientOrderIds: readonly string[]): Promise<Order[]> {
    const wanted = new Set(clientOrderIds);
    const found: Order[] = [];
    let pages = 0;
    for await (const page of this.#client.orders.historyPages({ limit: 200 })) {
      for (const o of page.orders)
        if (o.clientOrderId !== undefined && wanted.has(o.clientOrderId)) found.push(o);
      if (found.length === wanted.size || ++pages >= HISTORY_PAGES) break;
    }
    return found;
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
}
