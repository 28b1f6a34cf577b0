import type { Decimal } from "decimal.js";
import { Dec } from "../core/decimal.js";
import type { Side } from "../core/types.js";
import { microToString } from "./micro.js";
import { groupOwn, NetLevels } from "./net-book-levels.js";
import type { BookView, QueueAhead, WireLevel } from "./order-book.js";
import type { BookSide, Level, LevelsView } from "./price-levels.js";

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
 * spread lifts the mid, which lifts the bid…) until they cross someone else's.
 *
 * Cheap: a view, not a copy (see {@link NetBook}); it reads `book` live, so it answers for the book
 * as it is when asked — build it for one quoting step and drop it. The input is untouched; the book
 * itself is returned when we rest nothing on it, and a side we rest nothing on is the book's own.
 * @example bookWithout(book, [{ side: "buy", priceMicro: 490_000, sizeMicro: 10_000_000n }])
 */
export function bookWithout(book: BookView, own: readonly OwnLevel[]): BookView {
  if (own.length === 0) return book;
  return new NetBook(book, own);
}

/**
 * A BookView of `book` less our own orders, answering every query exactly as a copy of `book` with
 * our sizes subtracted would (the property test pins it to that copy), without copying: each query
 * goes to the underlying book and corrects it at the few prices we rest at (see NetLevels).
 *
 * It holds no snapshot of the levels: it reads the underlying book live, so while that book does not
 * change (one synchronous quoting step) it is a consistent snapshot, and after a change it answers
 * for the changed book. The engine builds one per step for the strategy (wrapped in the memo's
 * WatchedBook, which notes what is read as it would of any BookView) and keeps none.
 */
export class NetBook implements BookView {
  readonly tokenId: string;
  readonly bids: LevelsView;
  readonly asks: LevelsView;

  constructor(book: BookView, own: readonly OwnLevel[]) {
    this.tokenId = book.tokenId;
    const { bids, asks } = groupOwn(own);
    this.bids = bids.length === 0 ? book.bids : new NetLevels(book.bids, bids);
    this.asks = asks.length === 0 ? book.asks : new NetLevels(book.asks, asks);
  }

  bestBid(): Level | undefined {
    return this.bids.at(0);
  }

  bestAsk(): Level | undefined {
    return this.asks.at(0);
  }

  /** True when both sides exist and the best bid is at or above the best ask (locked counts). */
  isCrossed(): boolean {
    const bid = this.bids.bestPrice();
    const ask = this.asks.bestPrice();
    return bid !== undefined && ask !== undefined && bid >= ask;
  }

  /** Best ask − best bid in micro-units (negative when crossed); undefined unless both sides exist. */
  spread(): number | undefined {
    const bid = this.bids.bestPrice();
    const ask = this.asks.bestPrice();
    return bid === undefined || ask === undefined ? undefined : ask - bid;
  }

  /** (best bid + best ask) / 2 in whole units, exact; undefined unless both sides exist. */
  mid(): Decimal | undefined {
    const bid = this.bids.bestPrice();
    const ask = this.asks.bestPrice();
    if (bid === undefined || ask === undefined) return undefined;
    return new Dec(bid + ask).div(2_000_000);
  }

  /** Size-weighted mid, as OrderBook.microprice computes it (same formula, same rounding). */
  microprice(): Decimal | undefined {
    // One walk per side: the best level carries both the price and the size.
    const bid = this.bids.at(0);
    const ask = this.asks.at(0);
    if (bid === undefined || ask === undefined) return undefined;
    const num = BigInt(bid.price) * ask.size + BigInt(ask.price) * bid.size;
    return new Dec(num.toString()).div((bid.size + ask.size).toString()).div(1_000_000);
  }

  depthAt(side: BookSide, price: number): bigint {
    return this.#side(side).sizeAt(price);
  }

  depthThrough(side: BookSide, price: number): bigint {
    return this.#side(side).sizeThrough(price);
  }

  sizeAhead(side: BookSide, price: number): QueueAhead {
    const levels = this.#side(side);
    return { better: levels.sizeBetterThan(price), atPrice: levels.sizeAt(price) };
  }

  top(side: BookSide, n: number): Level[] {
    return this.#side(side).top(n);
  }

  toWire(depth = Number.POSITIVE_INFINITY): { bids: WireLevel[]; asks: WireLevel[] } {
    return { bids: wire(this.bids, depth), asks: wire(this.asks, depth) };
  }

  equals(other: BookView): boolean {
    return this.bids.equals(other.bids) && this.asks.equals(other.asks);
  }

  #side(side: BookSide): LevelsView {
    return side === "bid" ? this.bids : this.asks;
  }
}

// top(depth) stops at the last level, so it is OrderBook's top(min(depth, length)) without counting.
function wire(levels: LevelsView, depth: number): WireLevel[] {
  return levels.top(depth).map((l) => ({ price: microToString(l.price), size: microToString(l.size) }));
}
