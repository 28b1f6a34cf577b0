import type { Decimal } from "decimal.js";
import { Dec } from "../core/decimal.js";
import { microToString } from "./micro.js";
import type { BookView, QueueAhead, WireLevel } from "./order-book.js";
import type { BookSide, Level, LevelsView } from "./price-levels.js";

/**
 * Every BookView query, over a book's two sides: one place for the formulas (touch, spread, mid,
 * microprice, depth, queue ahead, wire form), shared by the OrderBook and the book without our
 * own orders (NetBook), which differ only in how their sides hold the levels.
 */
export abstract class LevelsBook implements BookView {
  abstract readonly tokenId: string;
  abstract readonly bids: LevelsView;
  abstract readonly asks: LevelsView;

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

  /**
   * Size-weighted mid: (bid × askSize + ask × bidSize) / (bidSize + askSize), leaning towards the
   * side with less size (the price more likely to move next). A model input, not an order price:
   * exact as a rational, rounded to Dec's 60 significant digits.
   */
  microprice(): Decimal | undefined {
    const bid = this.bids.bestPrice();
    const ask = this.asks.bestPrice();
    const bidSize = this.bids.bestSize();
    const askSize = this.asks.bestSize();
    if (bid === undefined || ask === undefined || bidSize === undefined || askSize === undefined) {
      return undefined;
    }
    const num = BigInt(bid) * askSize + BigInt(ask) * bidSize;
    return new Dec(num.toString()).div((bidSize + askSize).toString()).div(1_000_000);
  }

  /** Size resting exactly at `price` on `side` (0n when no level). */
  depthAt(side: BookSide, price: number): bigint {
    return this.levelsOf(side).sizeAt(price);
  }

  /** Size at `price` and all better prices on `side`: what a taker sweeping to `price` can take. */
  depthThrough(side: BookSide, price: number): bigint {
    return this.levelsOf(side).sizeThrough(price);
  }

  /** Resting size ahead of a new order at `price` on `side`, for queue-position estimates. */
  sizeAhead(side: BookSide, price: number): QueueAhead {
    const levels = this.levelsOf(side);
    return { better: levels.sizeBetterThan(price), atPrice: levels.sizeAt(price) };
  }

  /** Up to `n` levels of `side`, best first. */
  top(side: BookSide, n: number): Level[] {
    return this.levelsOf(side).top(n);
  }

  /** Both sides as decimal strings, best first, up to `depth` levels each. */
  toWire(depth = Number.POSITIVE_INFINITY): { bids: WireLevel[]; asks: WireLevel[] } {
    return { bids: wire(this.bids, depth), asks: wire(this.asks, depth) };
  }

  /** True when both books hold exactly the same levels. */
  equals(other: BookView): boolean {
    return this.bids.equals(other.bids) && this.asks.equals(other.asks);
  }

  /** The levels of one side. */
  protected levelsOf(side: BookSide): LevelsView {
    return side === "bid" ? this.bids : this.asks;
  }
}

// top(depth) stops at the last level: the whole side when depth is unbounded.
function wire(levels: LevelsView, depth: number): WireLevel[] {
  return levels.top(depth).map((l) => ({ price: microToString(l.price), size: microToString(l.size) }));
}
