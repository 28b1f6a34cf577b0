import type { OwnLevel } from "../../../src/book/net-book.js";
import { type BookView, OrderBook } from "../../../src/book/order-book.js";
import type { LevelsView } from "../../../src/book/price-levels.js";

/*
 * bookWithout as it was before the overlay, kept verbatim: the property test's oracle and the book
 * bench's baseline for the overlay.
 */

/** The old bookWithout: a fresh OrderBook holding every level, our sizes then subtracted. */
export function copyWithout(book: BookView, own: readonly OwnLevel[]): OrderBook {
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
