import type { Fill } from "../core/trading.js";
import type { Side } from "../core/types.js";
import { toWei } from "../core/wei.js";
import type { UnsureSearches } from "./history-search.js";
import type { Inventory } from "./inventory.js";
import type { TrackedOrder } from "./order-state.js";
import type { OrderStore } from "./order-store.js";
import type { RestoredFills } from "./restored-fees.js";
import type { SearchFailureStreaks } from "./search-failures.js";

/** What the reconciler keeps: the session's orders and its inventory. Mutated only by reconcile-*.ts. */
export interface ReconcileState {
  readonly orders: OrderStore;
  readonly inventory: Inventory;
  /**
   * Fills of an earlier run already in the restored accounts whose fee was still to come: the backfill
   * gives them their fee only (restored-fees.ts).
   */
  readonly restored?: RestoredFills;
  /**
   * Cut-short history searches that missed each unknown placement, across reconciles (the engine's):
   * the bound after which one is given up. Without it, one is never given up.
   */
  readonly unsure?: UnsureSearches;
  /** How many times in a row each unresolved placement's history search has failed (the engine's). */
  readonly failing?: SearchFailureStreaks;
}

/** Result of one fill. */
export interface FillEffect {
  /** False for a duplicate (already applied): nothing changed. */
  readonly applied: boolean;
  /** The order it belongs to, when tracked (its filled quantity and state are updated). */
  readonly order: TrackedOrder | undefined;
}

/**
 * Applies a fill at once to inventory and to its order.
 *
 * INVARIANTS
 * - Idempotent by (tradeId, orderId): a second delivery (WebSocket replay, REST backfill) changes nothing.
 * - Order-independent: inventory folds fills in canonical order (inventory.ts) and an order's filled
 *   quantity is a sum over distinct fills, so any arrival order gives the same state.
 * - A fill naming an order by clientOrderId binds that order's exchange id when it was unknown, and a
 *   complete fill makes the order `filled` whatever its state (fills are the exchange's word).
 * - A fill of an order this session never tracked still moves inventory (positions are the truth).
 */
export function applyFill(state: ReconcileState, fill: Fill): FillEffect {
  const applied = state.inventory.applyFill(fill);
  const order = state.orders.recordFill(fill);
  return { applied, order };
}

/** The user_fill payload fields mm uses (as the gateway parses them: decimals still strings). */
export interface WireFill {
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId?: string | undefined;
  readonly tokenId: string;
  readonly side: Side;
  readonly price: string;
  readonly quantity: string;
  readonly tsMs: number;
}

/**
 * A user_fill payload as a Fill. Throws ValidationError (`precision_exceeded`, `invalid_decimal`) on
 * amounts finer than a micro-unit: the gateway counts and drops such a frame. The time is floored to a
 * whole millisecond: the spec only says "milliseconds since epoch", the journal stores integers, and the
 * REST copy of the same trade (`Date.parse`) is whole, so both copies sort alike.
 * @example fillFromWire({ tradeId: "t1", orderId: "o1", tokenId: "7", side: "buy", price: "0.4", quantity: "10", tsMs: 1 }).priceMicro // 400000
 */
export function fillFromWire(w: WireFill): Fill {
  return {
    tradeId: w.tradeId,
    orderId: w.orderId,
    clientOrderId: w.clientOrderId,
    tokenId: w.tokenId,
    side: w.side,
    priceMicro: Number(toWei(w.price, "price")),
    sizeMicro: toWei(w.quantity, "quantity"),
    tsMs: Math.floor(w.tsMs),
  };
}
