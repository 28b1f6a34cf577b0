import type { Decimal } from "decimal.js";
import { Dec } from "../core/decimal.js";
import type { LevelBuffer } from "./level-buffer.js";
import { microToString } from "./micro.js";
import { type BookSide, type Level, type LevelsView, PriceLevels } from "./price-levels.js";

/** A level as the wire and reports spell it: decimal strings. */
export interface WireLevel {
  readonly price: string;
  readonly size: string;
}

/** What readers (engine, strategies, reports) may do with a book: every query, no mutation. */
export interface BookView {
  readonly tokenId: string;
  readonly bids: LevelsView;
  readonly asks: LevelsView;
  bestBid(): Level | undefined;
  bestAsk(): Level | undefined;
  isCrossed(): boolean;
  spread(): number | undefined;
  mid(): Decimal | undefined;
  microprice(): Decimal | undefined;
  depthAt(side: BookSide, price: number): bigint;
  depthThrough(side: BookSide, price: number): bigint;
  sizeAhead(side: BookSide, price: number): QueueAhead;
  top(side: BookSide, n: number): Level[];
  toWire(depth?: number): { bids: WireLevel[]; asks: WireLevel[] };
  equals(other: BookView): boolean;
}

/** Resting size in front of a new order at some price: better levels, then the level itself. */
export interface QueueAhead {
  /** Total size at strictly better prices (fills before any order at the price). */
  readonly better: bigint;
  /** Size already resting at the price (a new order joins behind it). */
  readonly atPrice: bigint;
}

/**
 * The aggregated price-level book of one token. Prices are micro-unit numbers, sizes micro-unit
 * bigints (see micro.ts for why); every query that reaches an order or a report is exact.
 * @example
 * const book = new OrderBook("123");
 * book.apply("bid", 530_000, 10_000_000n); // 10 @ 0.53
 * book.apply("ask", 550_000, 4_000_000n);
 * book.mid()?.toFixed(); // "0.54"
 */
export class OrderBook implements BookView {
  readonly tokenId: string;
  readonly bids = new PriceLevels("bid");
  readonly asks = new PriceLevels("ask");

  constructor(tokenId: string) {
    this.tokenId = tokenId;
  }

  /** The levels of one side. */
  side(side: BookSide): PriceLevels {
    return side === "bid" ? this.bids : this.asks;
  }

  /** Sets one level's total size; 0n removes it. */
  apply(side: BookSide, price: number, size: bigint): void {
    (side === "bid" ? this.bids : this.asks).set(price, size);
  }

  /** Applies parsed changes in order (a later change to the same level wins). */
  applyChanges(buf: LevelBuffer): void {
    for (let i = 0; i < buf.length; i++) {
      const side = buf.bid[i] === 1 ? this.bids : this.asks;
      side.set(buf.prices[i] as number, buf.sizes[i] as bigint);
    }
  }

  /** Replaces the whole book with parsed levels (bids first, then asks, as LevelBuffer holds them). */
  replace(buf: LevelBuffer): void {
    const split = buf.firstAsk;
    this.bids.replace(buf.prices, buf.sizes, 0, split);
    this.asks.replace(buf.prices, buf.sizes, split, buf.length);
  }

  /** Empties both sides. */
  clear(): void {
    this.bids.clear();
    this.asks.clear();
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
    return this.side(side).sizeAt(price);
  }

  /** Size at `price` and all better prices on `side`: what a taker sweeping to `price` can take. */
  depthThrough(side: BookSide, price: number): bigint {
    return this.side(side).sizeThrough(price);
  }

  /** Resting size ahead of a new order at `price` on `side`, for queue-position estimates. */
  sizeAhead(side: BookSide, price: number): QueueAhead {
    const levels = this.side(side);
    return { better: levels.sizeBetterThan(price), atPrice: levels.sizeAt(price) };
  }

  /** Up to `n` levels of `side`, best first. */
  top(side: BookSide, n: number): Level[] {
    return this.side(side).top(n);
  }

  /** Both sides as decimal strings, best first, up to `depth` levels each. */
  toWire(depth = Number.POSITIVE_INFINITY): { bids: WireLevel[]; asks: WireLevel[] } {
    return { bids: wire(this.bids, depth), asks: wire(this.asks, depth) };
  }

  /** True when both books hold exactly the same levels. */
  equals(other: BookView): boolean {
    return this.bids.equals(other.bids) && this.asks.equals(other.asks);
  }
}

function wire(levels: PriceLevels, depth: number): WireLevel[] {
  return levels
    .top(Math.min(depth, levels.length))
    .map((l) => ({ price: microToString(l.price), size: microToString(l.size) }));
}
