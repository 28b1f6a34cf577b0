import { latencyLane } from "../../../../src/backtest/sim/latency.js";
import { VenueExchange as SimVenueExchange } from "../../../../src/backtest/sim/venue-exchange.js";
import type { Clock } from "../../../../src/core/clock.js";
import { sleep } from "../../../../src/core/clock.js";
import type { Address, PlaceOrderRequest } from "../../../../src/core/types.js";
import type { ExchangePort, PositionsAt } from "../../../../src/engine/ports.js";
import type { CancelResult, OrderFill } from "../../../../src/exchange/assumptions.js";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../../src/exchange/place-outcome.js";
import type { CancelAllResult, Order, TradeRecord } from "../../../../src/exchange/types.js";
import type { ClientIdSearch, ReconcileSource, TimeWindow } from "../../../../src/execution/reconcile-run.js";
import type { SimVenue } from "../../../../src/venue/sim-venue.js";

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
  /** Answered by the venue as if unscripted (to script a later placement of a burst). */
  | { kind: "pass" }
  | { kind: "ambiguous_after" }
  | { kind: "ambiguous_before" }
  | { kind: "reject"; code: string };

/**
 * The engine tests' exchange: the backtest's adapter (src/backtest/sim/venue-exchange.ts) over the
 * real SimVenue for one wallet, with constant lanes of `latencyMs` on the way in (0: a microtask hop)
 * and 0 ms on the way back, plus what tests need on top of it: every call is recorded, and
 * placements can be scripted to be ambiguous or rejected.
 */
export class VenueExchange implements ExchangePort, ReconcileSource {
  readonly calls: VenueCall[] = [];
  readonly #inner: SimVenueExchange;
  readonly #clock: Clock;
  readonly #latencyMs: number;
  readonly #script: PlaceScript[] = [];
  /**
   * The platform is frozen: placements are answered 503 `exchange_unavailable` (as the mock does),
   * cancels and reads work. Nothing is pushed: the engine learns it only from these answers and
   * from GET /api/platform/status (when `platformStatus` was asked for).
   */
  frozen = false;
  /**
   * ClientOrderIds the order reads do not show yet (GET /api/orders/open and the history search), though
   * the venue holds the orders: the exchange's reads lagging its matcher. Delete one to show it.
   */
  readonly unlisted = new Set<string>();
  /** How many times GET /api/platform/status was read. */
  statusReads = 0;
  /** GET /api/platform/status's `frozen`, when the exchange was built with `platformStatus`. */
  platformFrozen?: () => Promise<boolean | undefined>;
  /** GET /api/markets/{slug}, when a test gives one (ExchangePort.marketRecord). */
  marketRecord?: NonNullable<ExchangePort["marketRecord"]>;
  /** GET /api/markets, when a test gives one (ExchangePort.listedMarkets: the open-market sweep). */
  listedMarkets?: NonNullable<ExchangePort["listedMarkets"]>;

  constructor(
    venue: SimVenue,
    wallet: Address,
    clock: Clock,
    opts: { latencyMs?: number; platformStatus?: boolean } = {},
  ) {
    this.#clock = clock;
    this.#latencyMs = opts.latencyMs ?? 0;
    if (opts.platformStatus === true) {
      this.platformFrozen = async () => {
        this.#record("platform_status", "");
        this.statusReads++;
        await this.#hop();
        return this.frozen;
      };
    }
    this.#inner = new SimVenueExchange(venue, wallet, clock, {
      entry: latencyLane(this.#latencyMs, 0, "entry"),
      response: latencyLane(0, 0, "response"),
    });
  }

  /** Scripts the answers of the next placements, in order. */
  scriptPlace(...answers: PlaceScript[]): void {
    this.#script.push(...answers);
  }

  /** Calls of one op. */
  of(op: string): VenueCall[] {
    return this.calls.filter((c) => c.op === op);
  }

  place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    this.#record("place", `${req.clientOrderId} ${req.side} ${req.price} ${req.quantity}`);
    if (this.frozen) return this.#unavailable();
    const s = this.#script.shift();
    return s === undefined || s.kind === "pass" ? this.#inner.place(req) : this.#scripted(s, req);
  }

  cancel(orderId: string): Promise<CancelResult> {
    this.#record("cancel", orderId);
    return this.#inner.cancel(orderId);
  }

  cancelAll(marketId?: string): Promise<CancelAllResult> {
    this.#record("cancel_all", marketId ?? "*");
    return this.#inner.cancelAll(marketId);
  }

  openOrders(): Promise<Order[]> {
    this.#record("open_orders", "");
    return this.#inner.openOrders().then((os) => this.#listed(os));
  }

  order(orderId: string): Promise<Order> {
    this.#record("order", orderId);
    return this.#inner.order(orderId);
  }

  ordersByClientId(
    clientOrderIds: readonly string[],
    window?: TimeWindow,
    resume?: string,
  ): Promise<ClientIdSearch> {
    this.#record("orders_by_client_id", clientOrderIds.join(","));
    return this.#inner
      .ordersByClientId(clientOrderIds, window, resume)
      .then((r) => ({ ...r, orders: this.#listed([...r.orders]) }));
  }

  trades(opts: {
    limit?: number;
    cursor?: string;
  }): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> {
    this.#record("trades", opts.cursor ?? "");
    return this.#inner.trades(opts);
  }

  positions(): Promise<{ tokenId: string; quantity: string }[]> {
    this.#record("positions", "");
    return this.#inner.positions();
  }

  positionsAt(): Promise<PositionsAt> {
    this.#record("positions", "");
    return this.#inner.positionsAt();
  }

  orderFills(orderId: string): Promise<OrderFill[]> {
    this.#record("order_fills", orderId);
    return this.#inner.orderFills(orderId);
  }

  /**
   * A scripted placement is answered here, after the entry latency (no response hop). An
   * `ambiguous_after` one is also handed to the adapter, whose answer is lost: its entry hop was
   * scheduled first, so the venue has the order when the ambiguity is answered.
   */
  async #scripted(s: PlaceScript, req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    if (s.kind === "ambiguous_after") void this.#inner.place(req);
    await (this.#latencyMs > 0 ? sleep(this.#clock, this.#latencyMs) : Promise.resolve());
    if (s.kind !== "reject") return ambiguous();
    const err = new ExchangeError({
      code: s.code,
      message: s.code,
      outcome: "rejected",
      endpoint: "POST /api/orders/place",
      httpStatus: 400,
    });
    return { kind: "rejected", code: s.code, retryable: false, error: err };
  }

  /** The mock's answer to a placement while the platform is frozen (src/mock/faults/placement-gate.ts). */
  async #unavailable(): Promise<PlaceOrderOutcome> {
    await this.#hop();
    const err = new ExchangeError({
      code: "exchange_unavailable",
      message: "platform is frozen: the matcher accepts no orders",
      outcome: "retryable",
      endpoint: "POST /api/orders/place",
      httpStatus: 503,
    });
    return { kind: "rejected", code: "exchange_unavailable", retryable: true, error: err };
  }

  #listed(orders: Order[]): Order[] {
    if (this.unlisted.size === 0) return orders;
    return orders.filter((o) => o.clientOrderId === undefined || !this.unlisted.has(o.clientOrderId));
  }

  #hop(): Promise<void> {
    return this.#latencyMs > 0 ? sleep(this.#clock, this.#latencyMs) : Promise.resolve();
  }

  #record(op: string, arg: string): void {
    this.calls.push({ op, atMs: this.#clock.now(), arg });
  }
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
