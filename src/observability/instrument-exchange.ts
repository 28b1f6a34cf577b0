import { performance } from "node:perf_hooks";
import type { PlaceOrderRequest } from "../core/types.js";
import { toWei } from "../core/wei.js";
import type { ExchangePort } from "../engine/ports.js";
import type { CancelResult } from "../exchange/assumptions.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { CancelAllResult, Order, TradeRecord } from "../exchange/types.js";
import type { ReconcileSource, TimeWindow } from "../execution/reconcile-run.js";

/** What the decorator reports to (the Metrics object). */
export interface ExchangeObserver {
  observeHttp(endpoint: string, outcome: string, seconds: number): void;
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
} as const;

/**
 * The engine's exchange port with every call timed into `mm_http_request_duration_seconds` by
 * endpoint and outcome: `accepted` / `rejected` / `ambiguous` for placements (their three-way
 * outcome), `ok` for other successes, the ExchangeError's outcome (`rejected`, `retryable`,
 * `ambiguous`) for failures, `error` for anything else. A call's duration includes the client's
 * retries. Placements also tell the metrics what filled at once (maker/taker attribution).
 * @example createEngine({ ..., exchange: instrumentExchange(new HttpExchange(client), metrics) })
 */
export function instrumentExchange<P extends ExchangePort & ReconcileSource>(
  port: P,
  observer: ExchangeObserver,
  now: () => number = () => performance.now(),
): ExchangePort & ReconcileSource {
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
    ordersByClientId: (ids: readonly string[], window?: TimeWindow): Promise<Order[]> =>
      timed(e.ordersByClientId, () => port.ordersByClientId(ids, window), ok),
    trades: (opts: { limit?: number; cursor?: string }) =>
      timed<{ trades: TradeRecord[]; nextCursor: string | null }>(e.trades, () => port.trades(opts), ok),
    positions: () => timed(e.positions, () => port.positions(), ok),
    ...optionalReads(port, timed),
  };
}

type Timed = <T>(endpoint: string, call: () => Promise<T>, outcome: (r: T) => string) => Promise<T>;

/** The port's optional reads, timed like the others, present only when the port has them. */
function optionalReads(
  port: ExchangePort & ReconcileSource,
  timed: Timed,
): Pick<ExchangePort & ReconcileSource, "positionsAt" | "orderFills" | "platformFrozen" | "gateRequests"> {
  const ok = () => "ok";
  const { positionsAt, orderFills, platformFrozen, gateRequests } = port;
  return {
    // Not a request: passed through, so that the engine's pacing reaches the HTTP client.
    ...(gateRequests === undefined ? {} : { gateRequests: (gate) => gateRequests.call(port, gate) }),
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
