import type { Clock } from "../../core/clock.js";
import { sleep } from "../../core/clock.js";
import type { Address, PlaceOrderRequest, Side } from "../../core/types.js";
import { toWei } from "../../core/wei.js";
import type { ExchangePort, PositionsAt } from "../../engine/ports.js";
import type { CancelResult, OrderFill } from "../../exchange/assumptions.js";
import { ExchangeError } from "../../exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../exchange/place-outcome.js";
import type { CancelAllResult, Order, TradeRecord } from "../../exchange/types.js";
import type { ClientIdSearch, ReconcileSource, TimeWindow } from "../../execution/reconcile-run.js";
import { placeRejectStatus } from "../../venue/reject-status.js";
import type { SimVenue } from "../../venue/sim-venue.js";
import type { Keyset } from "../../venue/types.js";
import { weiToString, wireOrder, wireTradeRow } from "../../venue/wire.js";
import type { Delay } from "./latency.js";

/**
 * Order-entry and response latency, simulated-clock milliseconds per request. Each direction is
 * one ordered lane (LatencyLane): a request never reaches the venue before one sent ahead of it,
 * nor an answer the engine before an earlier answer.
 */
export interface OrderLatency {
  /** From the engine's send to the venue acting on it. */
  readonly entry: Delay;
  /** From the venue's answer to the engine receiving it. */
  readonly response: Delay;
}

/** Called with a placement's market, outcome, side and price (micro-units) as it reaches the venue. */
export type BeforePlace = (marketId: string, outcome: string, side: Side, price: bigint) => void;

/** What the engine asked of the venue, for the report. */
export interface RequestCounts {
  place: number;
  placeRejected: number;
  cancel: number;
  cancelRejected: number;
  cancelAll: number;
  reads: number;
  /** Placement rejects by code. */
  readonly rejectCodes: Map<string, number>;
}

/** Request counts before any request. */
export function noRequests(): RequestCounts {
  return {
    place: 0,
    placeRejected: 0,
    cancel: 0,
    cancelRejected: 0,
    cancelAll: 0,
    reads: 0,
    rejectCodes: new Map(),
  };
}

/**
 * The engine's ExchangePort and ReconcileSource over the in-process SimVenue, for one wallet:
 * what the HTTP client is in live and paper mode. Each call waits an entry latency of the clock,
 * acts on the venue, waits a response latency, and answers with the spec's record shapes (wire.ts) as the HTTP
 * client would parse them; business rejects come back as the client would report them (a rejected
 * placement outcome, an ExchangeError with outcome `rejected`). Nothing here is ambiguous: the
 * simulated network never loses a message.
 */
export class VenueExchange implements ExchangePort, ReconcileSource {
  readonly counts: RequestCounts = noRequests();
  readonly #venue: SimVenue;
  readonly #wallet: Address;
  readonly #clock: Clock;
  readonly #latency: OrderLatency;
  readonly #beforePlace: BeforePlace | undefined;

  /** `beforePlace` runs at exchange time, just before each placement reaches the venue's matcher. */
  constructor(
    venue: SimVenue,
    wallet: Address,
    clock: Clock,
    latency: OrderLatency,
    beforePlace?: BeforePlace,
  ) {
    this.#venue = venue;
    this.#wallet = wallet;
    this.#clock = clock;
    this.#latency = latency;
    this.#beforePlace = beforePlace;
  }

  async place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    this.counts.place++;
    await this.#hop(this.#latency.entry);
    const price = toWei(req.price, "price");
    this.#beforePlace?.(req.marketId, req.outcome, req.side, price);
    const r = this.#venue.place({
      wallet: this.#wallet,
      marketId: req.marketId,
      outcome: req.outcome,
      side: req.side,
      price,
      quantity: toWei(req.quantity, "quantity"),
      ...(req.type === undefined ? {} : { type: req.type }),
      ...(req.timeInForce === undefined ? {} : { timeInForce: req.timeInForce }),
      expiry: req.expiry,
      ...(req.clientOrderId === undefined ? {} : { clientOrderId: req.clientOrderId }),
    });
    await this.#hop(this.#latency.response);
    if (r.status === "REJECTED") {
      const code = r.code ?? "matcher_error";
      this.counts.placeRejected++;
      this.counts.rejectCodes.set(code, (this.counts.rejectCodes.get(code) ?? 0) + 1);
      const err = error(code, placeRejectStatus(code), "POST /api/orders/place");
      return { kind: "rejected", code, retryable: false, error: err };
    }
    const result = {
      orderId: r.orderId,
      status: r.status,
      filledQty: weiToString(r.filledQty),
      remainingQty: weiToString(r.remainingQty),
      trades: [],
    };
    return { kind: "accepted", result, requestId: undefined };
  }

  async cancel(orderId: string): Promise<CancelResult> {
    this.counts.cancel++;
    await this.#hop(this.#latency.entry);
    const r = this.#venue.cancel(this.#wallet, orderId);
    await this.#hop(this.#latency.response);
    if (!r.ok) {
      this.counts.cancelRejected++;
      throw error(r.code, r.code === "order_not_found" ? 404 : 409, "POST /api/orders/cancel");
    }
    return { orderId: r.order.id, status: r.order.status };
  }

  async cancelAll(marketId?: string): Promise<CancelAllResult> {
    this.counts.cancelAll++;
    return this.#call(() => this.#venue.cancelAll(this.#wallet, marketId));
  }

  openOrders(): Promise<Order[]> {
    return this.#read(() => this.#venue.openOrders(this.#wallet).map(toOrder));
  }

  async order(orderId: string): Promise<Order> {
    const o = await this.#read(() => this.#venue.order(this.#wallet, orderId));
    if (o === undefined) throw error("order_not_found", 404, "GET /api/orders/{id}");
    return toOrder(o);
  }

  ordersByClientId(
    clientOrderIds: readonly string[],
    window?: TimeWindow,
    resume?: string,
  ): Promise<ClientIdSearch> {
    const wanted = new Set(clientOrderIds);
    const span = window === undefined ? {} : { from: window.fromMs, to: window.toMs };
    const after = resume === undefined ? {} : { after: JSON.parse(resume) as Keyset };
    return this.#read(() => {
      const page = this.#venue.orderHistory(this.#wallet, { limit: 1000, ...span, ...after });
      const orders = page.items
        .filter((o) => o.clientOrderId !== undefined && wanted.has(o.clientOrderId))
        .map(toOrder);
      // One page: complete when it was the last, or every id is on it; else read on after it.
      const seen = new Set(orders.map((o) => o.clientOrderId));
      if (page.next === undefined || seen.size === wanted.size) return { orders, complete: true };
      return { orders, complete: false, resume: JSON.stringify(page.next) };
    });
  }

  trades(opts: {
    limit?: number;
    cursor?: string;
  }): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> {
    const after = opts.cursor === undefined ? undefined : (JSON.parse(opts.cursor) as Keyset);
    return this.#read(() => {
      const page = this.#venue.walletTrades(this.#wallet, {
        limit: opts.limit ?? 100,
        ...(after === undefined ? {} : { after }),
      });
      return {
        trades: page.items.map((r) => wireTradeRow(r) as unknown as TradeRecord),
        nextCursor: page.next === undefined ? null : JSON.stringify(page.next),
      };
    });
  }

  positions(): Promise<{ tokenId: string; quantity: string }[]> {
    return this.#read(() =>
      this.#venue
        .positions(this.#wallet)
        .map((p) => ({ tokenId: p.tokenId, quantity: weiToString(p.balance) })),
    );
  }

  /** positions() with the venue's clock at the read: the instant the holdings stand for. */
  positionsAt(): Promise<PositionsAt> {
    return this.#read(() => ({
      positions: this.#venue
        .positions(this.#wallet)
        .map((p) => ({ tokenId: p.tokenId, quantity: weiToString(p.balance) })),
      asOfMs: this.#clock.now(),
    }));
  }

  /** GET /api/orders/{id}/fills: the order's trade rows (`id` = tradeId). */
  async orderFills(orderId: string): Promise<OrderFill[]> {
    const rows = await this.#read(() => this.#venue.orderFills(this.#wallet, orderId));
    if (rows === undefined) throw error("order_not_found", 404, "GET /api/orders/{id}/fills");
    return rows.map((r) => wireTradeRow(r) as unknown as OrderFill);
  }

  #read<T>(fn: () => T): Promise<T> {
    this.counts.reads++;
    return this.#call(fn);
  }

  async #call<T>(fn: () => T): Promise<T> {
    await this.#hop(this.#latency.entry);
    const out = fn();
    await this.#hop(this.#latency.response);
    return out;
  }

  // A sampled lane's 0 ms request still waits on the clock: one sent earlier may be due this very
  // ms on a timer not fired yet, and a request never reaches the venue before it.
  #hop(lane: Delay): Promise<void> {
    const ms = lane.next(this.#clock.now());
    return ms > 0 || lane.queues === true ? sleep(this.#clock, ms) : Promise.resolve();
  }
}

function toOrder(o: Parameters<typeof wireOrder>[0]): Order {
  return wireOrder(o) as unknown as Order;
}

function error(code: string, httpStatus: number, endpoint: string): ExchangeError {
  return new ExchangeError({ code, message: code, outcome: "rejected", endpoint, httpStatus });
}
