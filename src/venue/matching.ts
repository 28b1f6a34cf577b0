import type { Address, Side } from "../core/types.js";
import type { BookEntry } from "./book-side.js";
import type { OrderBook } from "./order-book.js";

/**
 * Self-trade prevention. `cancel_resting`: an incoming order never fills against a resting order
 * of the same wallet; the resting one is cancelled and matching goes on (the "cancel oldest" /
 * expire-maker mode most exchanges default to, and what keeps a market maker's stale quote from
 * printing a wash trade with its own new order). `allow`: such orders match like any others, fees
 * included.
 */
export type SelfTradePolicy = "cancel_resting" | "allow";

/** The incoming order as the matcher sees it. */
export interface Incoming {
  readonly side: Side;
  /** Limit (or, for a market order, worst acceptable) price. */
  readonly price: bigint;
  readonly wallet: Address;
}

/** Effects of matching; the matcher updates the book itself after each call. */
export interface MatchHooks {
  /** Settles a fill of `qty` against `maker` at the maker's price. */
  fill(maker: BookEntry, qty: bigint): void;
  /** Cancels a resting order of the incoming order's own wallet (self-trade prevention). */
  selfTrade(maker: BookEntry): void;
}

/** True when a resting order at `restingPrice` is acceptable to the incoming order. */
export function crosses(incoming: Incoming, restingPrice: bigint): boolean {
  return incoming.side === "buy" ? restingPrice <= incoming.price : restingPrice >= incoming.price;
}

function isSelf(incoming: Incoming, entry: BookEntry, policy: SelfTradePolicy): boolean {
  return policy === "cancel_resting" && entry.order.wallet === incoming.wallet;
}

/**
 * Quantity the incoming order could fill right now, counting at most `cap`. Reads the book
 * without touching it: the FOK check (and the IOC "anything at all?" check) run before any state
 * changes, so a refused order leaves the venue exactly as it was.
 */
export function executableQuantity(
  book: OrderBook,
  incoming: Incoming,
  policy: SelfTradePolicy,
  cap: bigint,
): bigint {
  let total = 0n;
  for (const entry of book.oppositeOf(incoming.side).entries()) {
    if (total >= cap || !crosses(incoming, entry.level.price)) break;
    if (!isSelf(incoming, entry, policy)) total += entry.size;
  }
  return total < cap ? total : cap;
}

/**
 * Matches the incoming order against the opposite side in price-time priority until it is filled
 * or no longer crosses. Each fill is at the resting order's price. Returns the quantity left.
 */
export function match(
  book: OrderBook,
  incoming: Incoming,
  quantity: bigint,
  policy: SelfTradePolicy,
  hooks: MatchHooks,
): bigint {
  const opposite = book.oppositeOf(incoming.side);
  let remaining = quantity;
  while (remaining > 0n) {
    const level = opposite.best();
    if (level === undefined || !crosses(incoming, level.price)) break;
    const entry = level.head;
    if (entry === undefined) break; // unreachable: empty levels are deleted
    if (isSelf(incoming, entry, policy)) {
      hooks.selfTrade(entry);
      opposite.remove(entry);
      continue;
    }
    const qty = entry.size < remaining ? entry.size : remaining;
    hooks.fill(entry, qty);
    opposite.reduce(entry, qty);
    remaining -= qty;
  }
  return remaining;
}
