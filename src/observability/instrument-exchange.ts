import { performance } from "node:perf_hooks";
import type { PlaceOrderRequest } from "../core/types.js";
import { toWei } from "../core/wei.js";
import type { ExchangePort } from "../engine/ports.js";
import type { CancelResult } from "../exchange/assumptions.js";
import type { RequestGate } from "../exchange/caller.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { CancelAllResult, Order, TradeRecord } from "../exchange/types.js";
import type { ClientIdSearch, ReconcileSource, TimeWindow } from "../execution/reconcile-run.js";

/** What the decorator reports to (the Metrics object). */
export interface ExchangeObserver {
  observeHttp(endpoint: string, outcome: string, seconds: number): void;
  /** A paced request (`METHOD /route/template`) waited `seconds` on the request gate before it was sent. */
  observeGateWait?(endpoint: string, seconds: number): void;
  onPlacementSending(clientOrderId: string): void;
  onPlacementAnswered(clientOrderId: string, filledMicro: bigint | undefined): void;
}

/** The endpoint label of each port call (`METHOD /route/template`, as the HTTP client names it). */
export const PORT_ENDPOINTS = {
  place: "POST /api/orders/place",
  cancel: "POST /api/orders/cancel",
  cancelAll: "POST /api/orders/cancel-all",
  openOrders: "GET /api/orders/open",
  order: "GET /api/orders/{id}",
  ordersByClientId: "GET /api/orders/history",
  trades: "GET /api/me/trades",
  positions: "GET /api/me/positions",
  orderFills: "GET /api/orders/{id}/fills",
  platformFrozen: "GET /api/platform/status",
  marketRecord: "GET /api/markets/{slug}",
  listedMarkets: "GET /api/markets",
} as const;

/**
 * The engine's exchange port with every call timed into `mm_http_request_duration_seconds` by
 * endpoint and outcome: `accepted` / `rejected` / `ambiguous` for placements (their three-way
 * outcome), `ok` for other successes, the ExchangeError's outcome (`rejected`, `retryable`,
 * `ambiguous`) for failures, `error` for anything else. A call's duration includes the client's
 * retries and, for the order reads, their waits on the request gate (the engine's pacing), which
 * are also reported apart (observeGateWait) so that pacing is not read as a slow exchange.
 * Placements also tell the metrics what filled at once (maker/taker attribution).
 * @example createEngine({ ..., exchange: instrumentExchange(new HttpExchange(client), metrics) })
 */
export function instrumentExchange<P extends ExchangePort & ReconcileSource>(
  port: P,
  observer: ExchangeObserver,
  now: () => number = () => performance.now(),
): ExchangePort & ReconcileSource {
  const gates = new GateWaits(observer, now);
  const timed = async <T>(
    endpoint: string,
    call: () => Promise<T>,
    outcome: (r: T) => string,
  ): Promise<T> => {
    const start = now();
    try {
      const r = await call();
      observer.observeHttp(endpoint, outcome(r), (now() - start) / 1_000);
      return r;
    } catch (err) {
      observer.observeHttp(
        endpoint,
        err instanceof ExchangeError ? err.outcome : "error",
        (now() - start) / 1_000,
      );
      throw err;
    }
  };
  const ok = () => "ok";
  const e = PORT_ENDPOINTS;
  return {
    async place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
      const cid = req.clientOrderId;
      if (cid !== undefined) observer.onPlacementSending(cid);
      let out: PlaceOrderOutcome | undefined;
      try {
        out = await timed(
          e.place,
          () => port.place(req),
          (r) => r.kind,
        );
        return out;
      } finally {
        if (cid !== undefined) observer.onPlacementAnswered(cid, filledAtPlacement(out));
      }
    },
    cancel: (orderId: string): Promise<CancelResult> => timed(e.cancel, () => port.cancel(orderId), ok),
    cancelAll: (marketId?: string): Promise<CancelAllResult> =>
      timed(e.cancelAll, () => port.cancelAll(marketId), ok),
    openOrders: (): Promise<Order[]> => timed(e.openOrders, () => port.openOrders(), ok),
    order: (orderId: string): Promise<Order> => timed(e.order, () => port.order(orderId), ok),
    ordersByClientId: (
      ids: readonly string[],
      window?: TimeWindow,
      resume?: string,
    ): Promise<ClientIdSearch> =>
      timed(e.ordersByClientId, () => port.ordersByClientId(ids, window, resume), ok),
    trades: (opts: { limit?: number; cursor?: string }) =>
      timed<{ trades: TradeRecord[]; nextCursor: string | null }>(e.trades, () => port.trades(opts), ok),
    positions: () => timed(e.positions, () => port.positions(), ok),
    ...optionalReads(port, timed, gates),
  };
}

/**
 * The request gate's waits (the engine's pacing of the order reads), each reported by endpoint once
 * the gate lets its request go. A port call's duration still includes them: attributing a wait to
 * its call would take an async context (AsyncLocalStorage), which on Node 20 slows every promise of
 * the process by half; the two histograms side by side tell pacing from a slow exchange.
 */
class GateWaits {
  readonly #observer: ExchangeObserver;
  readonly #now: () => number;

  constructor(observer: ExchangeObserver, now: () => number) {
    this.#observer = observer;
    this.#now = now;
  }

  /** `gate` timed: each wait is reported (seconds, by endpoint) once it lets the request go. */
  wrap(gate: RequestGate): RequestGate {
    return (method, route, signal) => {
      const wait = gate(method, route, signal);
      if (wait === undefined) return undefined;
      const start = this.#now();
      return wait.then((ticket) => {
        this.#observer.observeGateWait?.(`${method} ${route}`, Math.max(0, this.#now() - start) / 1_000);
        return ticket;
      });
    };
  }
}

type Timed = <T>(endpoint: string, call: () => Promise<T>, outcome: (r: T) => string) => Promise<T>;

/** The port's optional reads, timed like the others, present only when the port has them. */
function optionalReads(
  port: ExchangePort & ReconcileSource,
  timed: Timed,
  gates: GateWaits,
): Pick<
  ExchangePort & ReconcileSource,
  "positionsAt" | "orderFills" | "platformFrozen" | "gateRequests" | "marketRecord" | "listedMarkets"
> {
  const ok = () => "ok";
  const { positionsAt, orderFills, platformFrozen, gateRequests, marketRecord, listedMarkets } = port;
  return {
    // Not a request: passed through (its waits timed apart), so that the engine's pacing reaches the HTTP client.
    ...(gateRequests === undefined
      ? {}
      : { gateRequests: (gate) => gateRequests.call(port, gates.wrap(gate)) }),
    ...(platformFrozen === undefined
      ? {}
      : { platformFrozen: () => timed(PORT_ENDPOINTS.platformFrozen, () => platformFrozen.call(port), ok) }),
    ...(positionsAt === undefined
      ? {}
      : { positionsAt: () => timed(PORT_ENDPOINTS.positions, () => positionsAt.call(port), ok) }),
    ...(orderFills === undefined
      ? {}
      : {
          orderFills: (id: string) => timed(PORT_ENDPOINTS.orderFills, () => orderFills.call(port, id), ok),
        }),
    ...(marketRecord === undefined
      ? {}
      : {
          marketRecord: (m, read) =>
            timed(PORT_ENDPOINTS.marketRecord, () => marketRecord.call(port, m, read), ok),
        }),
    ...(listedMarkets === undefined
      ? {}
      : { listedMarkets: () => timed(PORT_ENDPOINTS.listedMarkets, () => listedMarkets.call(port), ok) }),
  };
}

/** Quantity matched at placement (micro-shares) of an accepted placement; undefined otherwise. */
function filledAtPlacement(out: PlaceOrderOutcome | undefined): bigint | undefined {
  if (out?.kind !== "accepted") return undefined;
  try {
    return toWei(out.result.filledQty, "quantity");
  } catch {
    return 0n; // unreadable filledQty: treat the order as resting
  }
}
