import type { Address } from "../core/types.js";
import type { BookEntry } from "./book-side.js";
import type { CancelReason, VenueEvent } from "./events.js";
import type { ExpirySchedule } from "./expiry.js";
import type { VenueIds } from "./ids.js";
import type { Ledger } from "./ledger.js";
import type { MarketRegistry } from "./markets.js";
import type { SelfTradePolicy } from "./matching.js";
import { reservedAsset, type VenueOrder, viewOf } from "./order.js";
import type { OrderBook } from "./order-book.js";
import type { OrderStore } from "./order-store.js";
import type { TradeStore } from "./trade-store.js";

/**
 * The venue's state, shared by the operation modules (place.ts, cancel.ts) and owned by SimVenue,
 * which wraps every operation: expiry sweep first, then the mutation, then one book diff per
 * touched token, then event delivery.
 */
export interface VenueState {
  readonly ids: VenueIds;
  readonly markets: MarketRegistry;
  readonly ledger: Ledger;
  readonly orders: OrderStore;
  readonly trades: TradeStore;
  /** One book per outcome token. */
  readonly books: Map<string, OrderBook>;
  /** Book entries of resting orders by order id. */
  readonly resting: Map<string, BookEntry>;
  readonly expiries: ExpirySchedule;
  readonly selfTrade: SelfTradePolicy;
  readonly vaultOf: (wallet: Address) => Address;
  /** Events of the operation in progress, published when it ends. */
  readonly pending: VenueEvent[];
  /** Tokens whose book the operation in progress touched. */
  readonly touched: Set<string>;
}

/**
 * Ends a live order that is not (or no longer) filling: takes it off its book if it rests,
 * releases its whole reservation and records the final status. `inBook: false` when the caller
 * (the matcher) removes the book entry itself.
 */
export function endOrder(
  s: VenueState,
  order: VenueOrder,
  status: "CANCELLED" | "EXPIRED",
  reason: CancelReason | undefined,
  now: number,
  inBook = true,
): void {
  const entry = s.resting.get(order.id);
  if (entry !== undefined) {
    if (inBook) s.books.get(order.tokenId)?.sideOf(order.side).remove(entry);
    s.resting.delete(order.id);
    s.touched.add(order.tokenId);
  }
  s.ledger.release(order.wallet, reservedAsset(order), order.reserved);
  order.reserved = 0n;
  order.status = status;
  order.updatedAt = now;
  s.orders.markClosed(order);
  s.pending.push(
    status === "EXPIRED"
      ? { type: "order_expired", tsMs: now, order: viewOf(order) }
      : { type: "order_cancelled", tsMs: now, reason: reason ?? "user", order: viewOf(order) },
  );
}

/** Normalises a wallet address to the lowercase form every venue index uses. */
export function walletKey(wallet: Address | string): Address {
  return wallet.toLowerCase() as Address;
}
