import type { Address } from "../core/types.js";
import { buyReservation } from "./amounts.js";
import { USDC } from "./ledger.js";
import { type VenueOrder, viewOf } from "./order.js";
import { type VenueState, walletKey } from "./state.js";
import type { OrderView, VenueReject } from "./types.js";

/** Codes an amend can fail with. */
export type AmendRejectCode =
  | "order_not_found"
  | "forbidden"
  | "not_cancellable"
  | "invalid_amounts"
  | "insufficient_funds";

/** Outcome of an amend; `order` is a view of the order as it stands when read. */
export type AmendResult =
  | { readonly ok: true; readonly order: OrderView }
  | ({ readonly ok: false } & VenueReject<AmendRejectCode>);

/**
 * Sets the unfilled quantity of a resting order to `remaining`, in place: the order keeps its
 * price and its time priority (its queue position), its reservation grows or shrinks to match,
 * and its quantity becomes filledQty + remaining. The spec has no amend endpoint; this is a
 * venue-internal operation for the backtest, whose mirror of the recorded market's liquidity
 * follows each level's size with one order per level (see src/backtest/replay/crowd-mirror.ts).
 * It publishes only the book change, no user_orders event. `remaining` 0 is refused (cancel
 * instead); so is a growth the wallet's available balance cannot reserve.
 */
export function amendOrder(
  s: VenueState,
  wallet: Address,
  orderId: string,
  remaining: bigint,
  now: number,
): AmendResult {
  const order = s.orders.get(orderId);
  if (order === undefined) {
    return { ok: false, code: "order_not_found", message: `no order ${orderId}`, details: { orderId } };
  }
  if (order.wallet !== walletKey(wallet)) {
    return { ok: false, code: "forbidden", message: "order belongs to another wallet", details: { orderId } };
  }
  const entry = s.resting.get(orderId);
  if (order.status !== "OPEN" || entry === undefined) {
    return {
      ok: false,
      code: "not_cancellable",
      message: `order is ${order.status === "OPEN" ? "not resting" : order.status}`,
      details: { orderId, status: order.status },
    };
  }
  if (remaining <= 0n) {
    return {
      ok: false,
      code: "invalid_amounts",
      message: "remaining quantity must be above 0 (cancel the order instead)",
      details: { orderId, remaining: remaining.toString() },
    };
  }
  const asset = order.side === "buy" ? USDC : order.tokenId;
  const need = order.side === "buy" ? buyReservation(order.notionalAcc, order.price, remaining) : remaining;
  const more = need - order.reserved;
  if (more > 0n) {
    const available = s.ledger.available(order.wallet, asset);
    if (available < more) {
      return {
        ok: false,
        code: "insufficient_funds",
        message: "available balance cannot cover the larger order",
        details: { orderId, required: `${more}`, available: `${available}` },
      };
    }
    s.ledger.reserve(order.wallet, asset, more);
  } else if (more < 0n) {
    s.ledger.release(order.wallet, asset, -more);
  }
  order.reserved = need;
  order.quantity = order.filledQty + remaining;
  order.updatedAt = now;
  s.books.get(order.tokenId)?.sideOf(order.side).resize(entry, remaining);
  s.touched.add(order.tokenId);
  return new Amended(order);
}

// A successful amend; its order view is built when read (the backtest's mirror amends on most
// recorded level changes and reads only `ok`: a view per amend was most of its garbage).
class Amended {
  readonly ok = true as const;
  readonly #order: VenueOrder;

  constructor(order: VenueOrder) {
    this.#order = order;
  }

  get order(): OrderView {
    return viewOf(this.#order);
  }
}
