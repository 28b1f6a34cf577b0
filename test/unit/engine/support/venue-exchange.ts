import type { Clock } from "../../../../src/core/clock.js";
import { sleep } from "../../../../src/core/clock.js";
import type { Address, PlaceOrderRequest } from "../../../../src/core/types.js";
import { toWei } from "../../../../src/core/wei.js";
import type { ExchangePort } from "../../../../src/engine/ports.js";
import type { CancelResult } from "../../../../src/exchange/assumptions.js";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../../src/exchange/place-outcome.js";
import type { CancelAllResult, Order, TradeRecord } from "../../../../src/exchange/types.js";
import type { ReconcileSource } from "../../../../src/execution/reconcile-run.js";
import type { SimVenue } from "../../../../src/venue/sim-venue.js";
import type { Keyset } from "../../../../src/venue/types.js";
import { weiToString, wireOrder, wireTradeRow } from "../../../../src/venue/wire.js";

/** One request as the exchange saw it (the determinism test compares these sequences). */
export interface VenueCall {
  readonly op: string;
  readonly atMs: number;
  readonly arg: string;
}

/**
 * A scripted answer for the next placement:
 * - `ambiguous_after`: the order reaches the venue, the answer is lost (timeout after sending);
 * - `ambiguous_before`: lost before reaching the venue (nothing placed), answered as ambiguous;
 * - `reject`: a definite reject with this code, nothing placed.
 */
export type PlaceScript =
  | { kind: "ambiguous_after" }
  | { kind: "ambiguous_before" }
  | { kind: "reject"; code: string };

/**
 * A hand-written exchange for engine tests: ExchangePort & ReconcileSource over the real SimVenue
 * (the matching engine the mock exchange and the backtest use), for one wallet, answering with the
 * spec's record shapes (wire.ts) as the HTTP client would parse them. Every answer arrives after a
 * hop (a microtask, or `latencyMs` of the Clock), every call is recorded, and placements can be
 * scripted to be ambiguous or rejected.
 */
export class VenueExchange implements ExchangePort, ReconcileSource {
  readonly calls: VenueCall[] = [];
  readonly #venue: SimVenue;
  readonly #wallet: Address;
  readonly #clock: Clock;
  readonly #latencyMs: number;
  readonly #script: PlaceScript[] = [];

  constructor(venue: SimVenue, wallet: Address, clock: Clock, opts: { latencyMs?: number } = {}) {
    this.#venue = venue;
    this.#wallet = wallet;
    this.#clock = clock;
    this.#latencyMs = opts.latencyMs ?? 0;
  }

  /** Scripts the answers of the next placements, in order. */
  scriptPlace(...answers: PlaceScript[]): void {
    this.#script.push(...answers);
  }

  /** Calls of one op. */
  of(op: string): VenueCall[] {
    return this.calls.filter((c) => c.op === op);
  }

  async place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    this.#record("place", `${req.clientOrderId} ${req.side} ${req.price} ${req.quantity}`);
    await this.#hop();
    const s = this.#script.shift();
    if (s?.kind === "ambiguous_before") return ambiguous();
    if (s?.kind === "reject") return rejected(s.code, 400);
    const r = this.#venue.place({
      wallet: this.#wallet,
      marketId: req.marketId,
      outcome: req.outcome,
      side: req.side,
      price: toWei(req.price, "price"),
      quantity: toWei(req.quantity, "quantity"),
      ...(req.type === undefined ? {} : { type: req.type }),
      ...(req.timeInForce === undefined ? {} : { timeInForce: req.timeInForce }),
      expiry: req.expiry,
      ...(req.clientOrderId === undefined ? {} : { clientOrderId: req.clientOrderId }),
    });
    if (s?.kind === "ambiguous_after") return ambiguous();
    if (r.status === "REJECTED")
      return rejected(r.code ?? "matcher_error", r.code === "market_not_open" ? 409 : 400);
    return {
      kind: "accepted",
      result: {
        orderId: r.orderId,
        status: r.status,
        filledQty: weiToString(r.filledQty),
        remainingQty: weiToString(r.remainingQty),
        trades: [],
      },
      requestId: undefined,
    };
  }

  async cancel(orderId: string): Promise<CancelResult> {
    this.#record("cancel", orderId);
    await this.#hop();
    const r = this.#venue.cancel(this.#wallet, orderId);
    if (!r.ok) throw error(r.code, r.code === "order_not_found" ? 404 : 409, "POST /api/orders/cancel");
    return { orderId: r.order.id, status: r.order.status };
  }

  async cancelAll(marketId?: string): Promise<CancelAllResult> {
    this.#record("cancel_all", marketId ?? "*");
    await this.#hop();
    return this.#venue.cancelAll(this.#wallet, marketId);
  }

  async openOrders(): Promise<Order[]> {
    this.#record("open_orders", "");
    await this.#hop();
    return this.#venue.openOrders(this.#wallet).map((o) => wireOrder(o) as unknown as Order);
  }

  async order(orderId: string): Promise<Order> {
    this.#record("order", orderId);
    await this.#hop();
    const o = this.#venue.order(this.#wallet, orderId);
    if (o === undefined) throw error("order_not_found", 404, "GET /api/orders/{id}");
    return wireOrder(o) as unknown as Order;
  }

  async ordersByClientId(clientOrderIds: readonly string[]): Promise<Order[]> {
    this.#record("orders_by_client_id", clientOrderIds.join(","));
    await this.#hop();
    const wanted = new Set(clientOrderIds);
    const page = this.#venue.orderHistory(this.#wallet, { limit: 1000 });
    return page.items
      .filter((o) => o.clientOrderId !== undefined && wanted.has(o.clientOrderId))
      .map((o) => wireOrder(o) as unknown as Order);
  }

  async trades(opts: { limit?: number; cursor?: string }): Promise<{
    trades: TradeRecord[];
    nextCursor: string | null;
  }> {
    this.#record("trades", opts.cursor ?? "");
    await this.#hop();
    const after = opts.cursor === undefined ? undefined : (JSON.parse(opts.cursor) as Keyset);
    const page = this.#venue.walletTrades(this.#wallet, {
      limit: opts.limit ?? 100,
      ...(after === undefined ? {} : { after }),
    });
    return {
      trades: page.items.map((r) => wireTradeRow(r) as unknown as TradeRecord),
      nextCursor: page.next === undefined ? null : JSON.stringify(page.next),
    };
  }

  async positions(): Promise<{ tokenId: string; quantity: string }[]> {
    this.#record("positions", "");
    await this.#hop();
    return this.#venue
      .positions(this.#wallet)
      .map((p) => ({ tokenId: p.tokenId, quantity: weiToString(p.balance) }));
  }

  #record(op: string, arg: string): void {
    this.calls.push({ op, atMs: this.#clock.now(), arg });
  }

  #hop(): Promise<void> {
    return this.#latencyMs > 0 ? sleep(this.#clock, this.#latencyMs) : Promise.resolve();
  }
}

function error(code: string, httpStatus: number, endpoint: string): ExchangeError {
  return new ExchangeError({ code, message: code, outcome: "rejected", endpoint, httpStatus });
}

function rejected(code: string, httpStatus: number): PlaceOrderOutcome {
  const err = error(code, httpStatus, "POST /api/orders/place");
  return { kind: "rejected", code, retryable: false, error: err };
}

function ambiguous(): PlaceOrderOutcome {
  const err = new ExchangeError({
    code: "request_timeout",
    message: "no answer within the timeout",
    outcome: "ambiguous",
    endpoint: "POST /api/orders/place",
  });
  return { kind: "ambiguous", error: err };
}
