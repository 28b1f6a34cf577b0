import type { Address } from "../core/types.js";
import { viewOf } from "./order.js";
import { endOrder, type VenueState, walletKey } from "./state.js";
import type { CancelResult } from "./types.js";

/**
 * Cancels one order of `wallet`. Codes: `order_not_found` (no such id), `forbidden` (another
 * wallet's order), `not_cancellable` (already FILLED, CANCELLED or EXPIRED).
 */
export function cancelOrder(s: VenueState, wallet: Address, orderId: string, now: number): CancelResult {
  const order = s.orders.get(orderId);
  if (order === undefined) {
    return { ok: false, code: "order_not_found", message: `no order ${orderId}`, details: { orderId } };
  }
  if (order.wallet !== walletKey(wallet)) {
    return { ok: false, code: "forbidden", message: "order belongs to another wallet", details: { orderId } };
  }
  if (order.status !== "OPEN") {
    return {
      ok: false,
      code: "not_cancellable",
      message: `order is already ${order.status}`,
      details: { orderId, status: order.status },
    };
  }
  endOrder(s, order, "CANCELLED", "user", now);
  return { ok: true, order: viewOf(order) };
}

/** Cancels every open order of `wallet`, optionally of one market; returns how many. */
export function cancelAllOrders(
  s: VenueState,
  wallet: Address,
  marketId: string | undefined,
  now: number,
): number {
  const open = s.orders.open(walletKey(wallet), marketId);
  for (const order of open) endOrder(s, order, "CANCELLED", "cancel_all", now);
  return open.length;
}

/** Cancels every resting order of a market, all wallets (an admin closing the book). */
export function cancelMarketOrders(s: VenueState, marketId: string, now: number): number {
  const victims = [...s.resting.values()].map((e) => e.order).filter((o) => o.marketId === marketId);
  for (const order of victims) endOrder(s, order, "CANCELLED", "market_closed", now);
  return victims.length;
}

/** Expires every resting order whose deadline has come. */
export function expireDue(s: VenueState, now: number): void {
  for (const id of s.expiries.due(now)) {
    const order = s.orders.get(id);
    if (order !== undefined && order.status === "OPEN") endOrder(s, order, "EXPIRED", undefined, now);
  }
}
