import type {
  FillEvent,
  OrderCancelledEvent,
  OrderExpiredEvent,
  OrderPlacedEvent,
} from "../../venue/events.js";
import type { OrderView } from "../../venue/types.js";
import { weiToString, wireUserFill } from "../../venue/wire.js";
import type { Hub } from "./hub.js";

/**
 * user_orders and user_fills, keyed by the acting wallet (envelope without `id`).
 *
 * user_fill is the venue's fill in the spec's exact fields. The order events' fields other than
 * clientOrderId are not shown in the spec; the mock sends the order as it stands (see
 * `orderEventData`). An expiry is pushed as order_cancelled with status EXPIRED and reason
 * `expired`, since the channel lists no other terminal event.
 */
export class UserFeed {
  readonly #hub: Hub;

  constructor(hub: Hub) {
    this.#hub = hub;
  }

  onOrder(e: OrderPlacedEvent | OrderCancelledEvent | OrderExpiredEvent): void {
    const wallet = e.order.userWallet;
    if (!this.#hub.has("user_orders", wallet)) return;
    const type = e.type === "order_placed" ? "order_placed" : "order_cancelled";
    const reason =
      e.type === "order_cancelled" ? e.reason : e.type === "order_expired" ? "expired" : undefined;
    this.#hub.publish("user_orders", wallet, type, orderEventData(e.order, e.tsMs, reason));
  }

  onFill(e: FillEvent): void {
    if (!this.#hub.has("user_fills", e.walletAddress)) return;
    this.#hub.publish("user_fills", e.walletAddress, "user_fill", wireUserFill(e));
  }
}

/**
 * Payload of order_placed / order_cancelled: orderId, clientOrderId (only when the placement
 * supplied one), walletAddress, vaultAddress, marketId, tokenId, outcome, outcomeIndex, side, type,
 * timeInForce, price, quantity, filledQty, remainingQty, status, expiry (unix seconds, 0 = none),
 * reason (order_cancelled only: user, cancel_all, self_trade, unfilled_remainder, market_closed,
 * expired), tsMs.
 */
export function orderEventData(
  o: OrderView,
  tsMs: number,
  reason: string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { orderId: o.id };
  if (o.clientOrderId !== undefined) out.clientOrderId = o.clientOrderId;
  Object.assign(out, {
    walletAddress: o.userWallet,
    vaultAddress: o.vault,
    marketId: o.marketId,
    tokenId: o.tokenId,
    outcome: o.outcome,
    outcomeIndex: o.outcomeIndex,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    price: weiToString(o.price),
    quantity: weiToString(o.quantity),
    filledQty: weiToString(o.filledQty),
    remainingQty: weiToString(o.remainingQty),
    status: o.status,
    expiry: o.expiry,
  });
  if (reason !== undefined) out.reason = reason;
  out.tsMs = tsMs;
  return out;
}
