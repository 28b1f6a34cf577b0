import type { OrderBook } from "../../book/order-book.js";
import type { Level } from "../../book/price-levels.js";
import type { Side } from "../../core/types.js";
import type { PrintCounters } from "./queue-model-config.js";

/** What the mirror did, for the report. */
export interface MirrorCounters extends PrintCounters {
  placed: number;
  amended: number;
  cancelled: number;
  /** Decreases at the touch that went through a bot order's queue place: trades inferred. */
  inferredTrades: number;
  /** Shares those inferred trades offered the bot, micro-units. */
  inferredQty: bigint;
  /** Placements held outside the venue because the recorded book was crossed (CrowdMirror rule 6). */
  heldCrossed: number;
  /** Mirror placements the venue refused (e.g. a recorded price off the configured tick), by code. */
  readonly rejected: Map<string, number>;
}

/** Counters of a mirror that has done nothing yet. */
export function newMirrorCounters(): MirrorCounters {
  return {
    placed: 0,
    amended: 0,
    cancelled: 0,
    inferredTrades: 0,
    inferredQty: 0n,
    heldCrossed: 0,
    rejected: new Map(),
    prints: 0,
    printsIgnored: 0,
    printTrades: 0,
    printQty: 0n,
  };
}

/** Prices are micro-units within [0, 1]: 1,000,001 distinct keys per token side. */
export const PRICE_KEYS = 1_000_001;

/**
 * A level as a number: (token position × 2 + side) × PRICE_KEYS + price (CrowdMirror's #leaveVenue
 * inverts it). Not a string of the 78-digit token id: the key is built and hashed on every change.
 */
export function levelKey(tag: number, side: Side, price: number): number {
  return (tag * 2 + (side === "buy" ? 0 : 1)) * PRICE_KEYS + price;
}

/**
 * A level of the market the mirror follows: its order in the venue, or — `orderId` undefined —
 * a level outside the venue holding less than the recorded size (the bot took some, rule 2).
 * Levels not followed hold exactly the recorded size.
 */
export interface CrowdLevel {
  orderId: string | undefined;
  remaining: bigint;
}

/**
 * The recorded levels of the other side that an order of `side` at `price` would meet (asks at or
 * below a buy's price, bids at or above a sell's), best first. On a book that is not crossed
 * there are none at the market's own prices, so this reads one level.
 */
export function* crossing(book: OrderBook, side: Side, price: number): Generator<Level> {
  const levels = book.side(side === "buy" ? "ask" : "bid");
  for (let i = 0; ; i++) {
    const l = levels.at(i);
    if (l === undefined || (side === "buy" ? l.price > price : l.price < price)) return;
    yield l;
  }
}

/**
 * CrowdMirror's rule 6: the market's levels held outside the venue because the market's live
 * liquidity crosses them (a crossed recorded book), by level key. `have` is what the market
 * holds at a recorded level: its followed size, or the recorded one.
 */
export class CrossedLevels {
  readonly #held = new Set<number>();
  readonly #key: (tokenId: string, side: Side, price: number) => number;
  readonly #have: (key: number, recorded: Level, tokenId: string) => bigint;

  constructor(
    key: (tokenId: string, side: Side, price: number) => number,
    have: (key: number, recorded: Level, tokenId: string) => bigint,
  ) {
    this.#key = key;
    this.#have = have;
  }

  /** Whether any level is held (almost never: only on a crossed recorded book). */
  get any(): boolean {
    return this.#held.size > 0;
  }

  /** Whether the level of `key` is held. */
  has(key: number): boolean {
    return this.#held.size > 0 && this.#held.has(key);
  }

  /** Holds the level of `key`, or (`held` false) lets it go. */
  set(key: number, held: boolean): void {
    if (held) this.#held.add(key);
    else this.#held.delete(key);
  }

  /** Whether live (not held) liquidity of the other side lies where an order of `side` at `price` meets it. */
  crosses(book: OrderBook, tokenId: string, side: Side, price: number): boolean {
    const other: Side = side === "buy" ? "sell" : "buy";
    const levels = book.side(side === "buy" ? "ask" : "bid");
    // A plain loop, no generator: this runs on every increase of a level outside the venue.
    for (let i = 0; ; i++) {
      const l = levels.at(i);
      if (l === undefined || (side === "buy" ? l.price > price : l.price < price)) return false;
      const key = this.#key(tokenId, other, l.price);
      if (!this.#held.has(key) && this.#have(key, l, tokenId) > 0n) return true;
    }
  }

  /**
   * The level of `side` at `price` shrank: the held levels of the other side it crossed that
   * nothing live crosses now are let go and listed, best first.
   */
  *released(book: OrderBook, tokenId: string, side: Side, price: number): Generator<Level> {
    if (this.#held.size === 0) return;
    const other: Side = side === "buy" ? "sell" : "buy";
    for (const l of crossing(book, side, price)) {
      const key = this.#key(tokenId, other, l.price);
      if (!this.#held.has(key) || this.crosses(book, tokenId, other, l.price)) continue;
      this.#held.delete(key);
      yield l;
    }
  }
}

/**
 * Where an aggressor of the market on `side` (a trade at `price`) reaches the bot's orders: a price
 * off the configured tick (a recording on a finer one) moves to the bot's side, to the first tick
 * the venue takes. The bot's orders lie on the tick, so the same ones are reached.
 * @example onBotTick("buy", 505n, 10n) // 510n
 */
export function onBotTick(side: Side, price: bigint, tick: bigint): bigint {
  const off = price % tick;
  return off === 0n ? price : side === "buy" ? price - off + tick : price - off;
}
