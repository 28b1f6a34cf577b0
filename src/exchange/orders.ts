import type { PlaceOrderRequest } from "../core/types.js";
import {
  type CancelResult,
  cancelResult,
  fills,
  type OpaqueRecord,
  type OrderFill,
  opaque,
  openOrders,
} from "./assumptions.js";
import type { ExchangeCaller } from "./caller.js";
import { allPages, cursorPages } from "./list-pages.js";
import { type PlaceOrderOutcome, placeOutcomeOf } from "./place-outcome.js";
import { normaliseCancelAll, normaliseHistoryPage, normaliseOrder, normalisePlacement } from "./records.js";
import type {
  AcceptedPlacementStatus,
  CancelAllResult,
  Order,
  OrderHistoryPage,
  OrderHistoryQuery,
  PlacementResult,
} from "./types.js";

/** Order endpoints (scopes orders:read / orders:write). Writes are never retried by the client. */
export class OrdersApi {
  readonly #caller: ExchangeCaller;

  constructor(caller: ExchangeCaller) {
    this.#caller = caller;
  }

  /**
   * POST /api/orders/place. Never throws an ExchangeError: every result is a {@link PlaceOrderOutcome}.
   * @example
   * const out = await client.orders.place(signedRequest);
   * switch (out.kind) { case "accepted": …; case "rejected": …; case "ambiguous": reconcile(req.clientOrderId); }
   */
  async place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    try {
      return await this.#caller.call({
        method: "POST",
        route: "/api/orders/place",
        body: req,
        placement: true,
        parse: (b, p, res) => ({
          kind: "accepted" as const,
          result: normalisePlacement(b, p) as PlacementResult & { status: AcceptedPlacementStatus },
          requestId: res.requestId,
        }),
      });
    } catch (err) {
      return placeOutcomeOf(err);
    }
  }

  /** POST /api/orders/cancel. 409 `not_cancellable` when already terminal, 404 `order_not_found`. */
  cancel(orderId: string): Promise<CancelResult> {
    return this.#caller.call({
      method: "POST",
      route: "/api/orders/cancel",
      body: { orderId },
      parse: cancelResult,
    });
  }

  /** POST /api/orders/cancel-all, optionally limited to one market. */
  cancelAll(marketId?: string): Promise<CancelAllResult> {
    return this.#caller.call({
      method: "POST",
      route: "/api/orders/cancel-all",
      body: marketId === undefined ? {} : { marketId },
      parse: normaliseCancelAll,
    });
  }

  /** GET /api/orders/open, every page (allPages: its paging is not shown). */
  open(): Promise<Order[]> {
    return allPages(this.#caller, "/api/orders/open", {}, openOrders);
  }

  /** GET /api/orders/{id}. */
  get(id: string): Promise<Order> {
    return this.#caller.call({
      method: "GET",
      route: "/api/orders/{id}",
      params: { id },
      parse: normaliseOrder,
    });
  }

  /** GET /api/orders/{id}/fills. */
  fills(id: string): Promise<OrderFill[]> {
    return this.#caller.call({
      method: "GET",
      route: "/api/orders/{id}/fills",
      params: { id },
      parse: fills,
    });
  }

  /** GET /api/orders/fees-summary (body not shown in the spec: an object). */
  feesSummary(): Promise<OpaqueRecord> {
    return this.#caller.call({ method: "GET", route: "/api/orders/fees-summary", parse: opaque });
  }

  /** GET /api/orders/history, one page. */
  history(query: OrderHistoryQuery = {}): Promise<OrderHistoryPage> {
    return this.#caller.call({
      method: "GET",
      route: "/api/orders/history",
      query: { ...query },
      parse: normaliseHistoryPage,
    });
  }

  /**
   * Every page of the history from `query.cursor` (or the start), following `nextCursor` unchanged until
   * it is null. A cursor the server repeats would loop forever, so it fails as malformed_response.
   * @example for await (const page of client.orders.historyPages({ marketId })) store(page.orders);
   */
  async *historyPages(query: OrderHistoryQuery = {}): AsyncGenerator<OrderHistoryPage, void, undefined> {
    yield* cursorPages("/api/orders/history", (cursor) =>
      this.history(cursor === undefined ? query : { ...query, cursor }),
    );
  }

  /**
   * Every order of the history, page by page.
   * @example for await (const order of client.orders.iterateHistory({ status: "FILLED" })) …
   */
  async *iterateHistory(query: OrderHistoryQuery = {}): AsyncGenerator<Order, void, undefined> {
    for await (const page of this.historyPages(query)) yield* page.orders;
  }
}
