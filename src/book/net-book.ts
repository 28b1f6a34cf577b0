import type { Side } from "../core/types.js";
import { LevelsBook } from "./levels-book.js";
import { groupOwn, NetLevels } from "./net-book-levels.js";
import type { BookView } from "./order-book.js";
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
 * goes to the underlying book and corrects it at the few prices we rest at (see NetLevels); the
 * queries' formulas are OrderBook's own (LevelsBook).
 *
 * It holds no snapshot of the levels: it reads the underlying book live, so while that book does not
 * change (one synchronous quoting step) it is a consistent snapshot, and after a change it answers
 * for the changed book. The engine builds one per step for the strategy (wrapped in the memo's
 * WatchedBook, which notes what is read as it would of any BookView) and keeps none.
 */
export class NetBook extends LevelsBook {
  readonly tokenId: string;
  readonly bids: LevelsView;
  readonly asks: LevelsView;

  constructor(book: BookView, own: readonly OwnLevel[]) {
    super();
    this.tokenId = book.tokenId;
    const { bids, asks } = groupOwn(own);
    this.bids = bids.length === 0 ? book.bids : new NetLevels(book.bids, bids);
    this.asks = asks.length === 0 ? book.asks : new NetLevels(book.asks, asks);
  }
}
