import type { Decimal } from "decimal.js";
import type { LevelBuffer } from "./level-buffer.js";
import { LevelsBook } from "./levels-book.js";
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
export class OrderBook extends LevelsBook {
  readonly tokenId: string;
  readonly bids = new PriceLevels("bid");
  readonly asks = new PriceLevels("ask");

  constructor(tokenId: string) {
    super();
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
}
