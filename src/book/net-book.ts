import type { Side } from "../core/types.js";
import { type BookView, OrderBook } from "./order-book.js";
import type { LevelsView } from "./price-levels.js";

/** One of our resting orders, as far as the book is concerned. */
export interface OwnLevel {
  readonly side: Side;
  readonly priceMicro: number;
  /** Remaining size in micro-shares. */
  readonly sizeMicro: bigint;
}

/**
 * The book as the rest of the market shows it: `book` with our own orders taken out of their
 * levels (a level never goes below zero; an emptied level disappears).
 *
 * Why: the exchange's book includes our quotes. A strategy pricing around the mid or microprice of
 * that book reads its own orders as the market's, so its quotes chase themselves (a bid inside the
 * spread lifts the mid, which lifts the bid…) until they cross someone else's. Pure: a fresh
 * OrderBook, the input untouched; the book itself is returned when we rest nothing on it.
 * @example bookWithout(book, [{ side: "buy", priceMicro: 490_000, sizeMicro: 10_000_000n }])
 */
export function bookWithout(book: BookView, own: readonly OwnLevel[]): BookView {
  if (own.length === 0) return book;
  const net = new OrderBook(book.tokenId);
  copy(book.bids, net, "bid");
  copy(book.asks, net, "ask");
  for (const o of own) {
    const side = o.side === "buy" ? "bid" : "ask";
    const left = net.depthAt(side, o.priceMicro) - o.sizeMicro;
    net.apply(side, o.priceMicro, left > 0n ? left : 0n);
  }
  return net;
}

function copy(from: LevelsView, to: OrderBook, side: "bid" | "ask"): void {
  const prices: number[] = [];
  const sizes: bigint[] = [];
  for (let i = 0; i < from.length; i++) {
    const level = from.at(i);
    if (level === undefined) break;
    prices.push(level.price);
    sizes.push(level.size);
  }
  to.side(side).replace(prices, sizes);
}
