import { describe, expect, it } from "vitest";
import { bookWithout } from "../../../src/book/net-book.js";
import { type BookView, OrderBook } from "../../../src/book/order-book.js";
import type { BookSide, Level, LevelsView } from "../../../src/book/price-levels.js";
import { WatchedBook } from "../../../src/engine/quote-memo.js";

/** A book with the other traders at 0.48 / 0.52 and our own quotes inside, at 0.49 / 0.51. */
function book(): OrderBook {
  const b = new OrderBook("t");
  b.apply("bid", 480_000, 100_000_000n);
  b.apply("bid", 490_000, 10_000_000n); // ours
  b.apply("ask", 510_000, 15_000_000n); // 10 ours + 5 someone else's
  b.apply("ask", 520_000, 100_000_000n);
  return b;
}

describe("bookWithout", () => {
  it("takes our resting sizes out of their levels: the market's own mid and microprice remain", () => {
    const raw = book();
    expect(raw.mid()?.toFixed()).toBe("0.5");
    const net = bookWithout(raw, [
      { side: "buy", priceMicro: 490_000, sizeMicro: 10_000_000n },
      { side: "sell", priceMicro: 510_000, sizeMicro: 10_000_000n },
    ]);
    // Our bid was the whole 0.49 level: it is gone; 5 of the 15 at 0.51 are someone else's.
    expect(net.bestBid()).toEqual({ price: 480_000, size: 100_000_000n });
    expect(net.bestAsk()).toEqual({ price: 510_000, size: 5_000_000n });
    expect(net.mid()?.toFixed()).toBe("0.495");
    // microprice = (bid × askSize + ask × bidSize) / (bidSize + askSize) = (0.48×5 + 0.51×100) / 105
    expect(net.microprice()?.toFixed(6)).toBe("0.508571");
    expect(net.depthAt("ask", 520_000)).toBe(100_000_000n);
    // The input is untouched.
    expect(raw.bestBid()).toEqual({ price: 490_000, size: 10_000_000n });
  });

  it("never takes a level below zero, and returns the book itself when we rest nothing", () => {
    const raw = book();
    const net = bookWithout(raw, [{ side: "buy", priceMicro: 490_000, sizeMicro: 25_000_000n }]);
    expect(net.depthAt("bid", 490_000)).toBe(0n);
    expect(net.bids.length).toBe(1);
    expect(bookWithout(raw, [])).toBe(raw);
  });
});

/** One side of a book, counting the queries that reach it (to prove nothing is copied). */
class CountingLevels implements LevelsView {
  readonly side: BookSide;
  constructor(
    readonly levels: LevelsView,
    readonly counter: { n: number },
  ) {
    this.side = levels.side;
  }
  get length(): number {
    return this.#count(this.levels.length);
  }
  bestPrice(): number | undefined {
    return this.#count(this.levels.bestPrice());
  }
  bestSize(): bigint | undefined {
    return this.#count(this.levels.bestSize());
  }
  at(rank: number): Level | undefined {
    return this.#count(this.levels.at(rank));
  }
  sizeAt(price: number): bigint {
    return this.#count(this.levels.sizeAt(price));
  }
  sizeBetterThan(price: number): bigint {
    return this.#count(this.levels.sizeBetterThan(price));
  }
  sizeThrough(price: number): bigint {
    return this.#count(this.levels.sizeThrough(price));
  }
  top(n: number): Level[] {
    return this.#count(this.levels.top(n));
  }
  equals(other: LevelsView): boolean {
    return this.#count(this.levels.equals(other));
  }
  #count<T>(answer: T): T {
    this.counter.n++;
    return answer;
  }
}

/** `book` seen through counting sides: OrderBook's own queries, answered from those sides. */
function counting(book: OrderBook): { view: BookView; reads: () => number } {
  const counter = { n: 0 };
  const view: BookView = Object.assign(Object.create(OrderBook.prototype) as OrderBook, {
    tokenId: book.tokenId,
    bids: new CountingLevels(book.bids, counter),
    asks: new CountingLevels(book.asks, counter),
  });
  return { view, reads: () => counter.n };
}

describe("bookWithout as a lazy overlay", () => {
  it("skips emptied levels by rank, and nets several of our orders at one price in turn", () => {
    const raw = new OrderBook("t");
    for (let i = 0; i < 6; i++) raw.apply("bid", 490_000 - i * 1_000, 10_000_000n);
    const net = bookWithout(raw, [
      { side: "buy", priceMicro: 490_000, sizeMicro: 10_000_000n }, // the whole touch
      { side: "buy", priceMicro: 488_000, sizeMicro: 4_000_000n },
      { side: "buy", priceMicro: 488_000, sizeMicro: 6_000_000n }, // 4 + 6: the whole level
      { side: "buy", priceMicro: 487_000, sizeMicro: 3_000_000n },
      { side: "buy", priceMicro: 495_000, sizeMicro: 1_000_000n }, // no level there: nothing
    ]);
    expect(net.bids.length).toBe(4);
    expect(net.bids.top(10).map((l) => [l.price, l.size])).toEqual([
      [489_000, 10_000_000n],
      [487_000, 7_000_000n],
      [486_000, 10_000_000n],
      [485_000, 10_000_000n],
    ]);
    expect(net.bids.at(1)).toEqual({ price: 487_000, size: 7_000_000n });
    expect(net.bids.at(3)).toEqual({ price: 485_000, size: 10_000_000n });
    expect(net.bids.at(4)).toBeUndefined();
    expect(net.depthThrough("bid", 487_000)).toBe(17_000_000n);
    expect(net.sizeAhead("bid", 487_000)).toEqual({ better: 10_000_000n, atPrice: 7_000_000n });
    expect(net.toWire(2).bids).toEqual([
      { price: "0.489", size: "10" },
      { price: "0.487", size: "7" },
    ]);
  });

  it("reads the underlying book live, and a side we rest nothing on is the book's own", () => {
    const raw = book();
    const net = bookWithout(raw, [{ side: "buy", priceMicro: 490_000, sizeMicro: 10_000_000n }]);
    expect(net.asks).toBe(raw.asks);
    expect(net.bestBid()?.price).toBe(480_000);
    raw.apply("bid", 485_000, 1_000_000n); // someone else joins in front of the 0.48 bids
    expect(net.bestBid()).toEqual({ price: 485_000, size: 1_000_000n });
    raw.apply("bid", 490_000, 12_000_000n); // 2 more behind ours
    expect(net.bestBid()).toEqual({ price: 490_000, size: 2_000_000n });
  });

  it("answers a bands strategy's reads with a handful of underlying lookups on a deep book", () => {
    const raw = new OrderBook("t");
    for (let i = 0; i < 500; i++) {
      raw.apply("bid", 499_000 - i * 100, 5_000_000n);
      raw.apply("ask", 501_000 + i * 100, 5_000_000n);
    }
    const { view, reads } = counting(raw);
    const net = bookWithout(view, [
      { side: "buy", priceMicro: 499_000, sizeMicro: 5_000_000n },
      { side: "buy", priceMicro: 498_000, sizeMicro: 1_000_000n },
      { side: "sell", priceMicro: 501_000, sizeMicro: 2_000_000n },
      { side: "sell", priceMicro: 502_000, sizeMicro: 1_000_000n },
    ]);
    expect(net.bestBid()?.price).toBe(498_900);
    expect(net.bestAsk()).toEqual({ price: 501_000, size: 3_000_000n });
    expect(net.mid()?.toFixed()).toBe("0.49995");
    // The copy read all 1,000 levels; the overlay reads a few near the touch.
    expect(reads()).toBeLessThan(20);
  });

  it("lets the memo's WatchedBook note exactly what the strategy read, as of the copy", () => {
    const own = [
      { side: "buy", priceMicro: 490_000, sizeMicro: 10_000_000n },
      { side: "sell", priceMicro: 510_000, sizeMicro: 10_000_000n },
    ] as const;
    const copied = new OrderBook("t");
    copied.apply("bid", 480_000, 100_000_000n);
    copied.apply("ask", 510_000, 5_000_000n);
    copied.apply("ask", 520_000, 100_000_000n);
    const reads = (view: BookView, read: (b: BookView) => unknown): { value: string; reads: number } => {
      const watched = new WatchedBook(view);
      return { value: String(read(watched)), reads: watched.reads };
    };
    const strategies: ((b: BookView) => unknown)[] = [
      (b) => [b.bestBid()?.price, b.bestAsk()?.price, b.mid()],
      (b) => b.microprice(),
      (b) => b.bids.at(0)?.size,
      (b) => b.depthThrough("ask", 520_000),
      (b) => b.asks.length,
    ];
    for (const read of strategies) {
      expect(reads(bookWithout(book(), own), read)).toEqual(reads(copied, read));
    }
  });
});
