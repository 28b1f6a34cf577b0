import type { Side } from "../core/types.js";
import type { VenueOrder } from "./order.js";

/** One resting order's place in its level's FIFO queue (an intrusive doubly-linked list: O(1) cancel). */
export interface BookEntry {
  readonly order: VenueOrder;
  readonly level: Level;
  /** Quantity this entry contributes to its level. */
  size: bigint;
  prev: BookEntry | undefined;
  next: BookEntry | undefined;
}

/** A price level: its total resting size and its orders in time priority. */
export interface Level {
  readonly price: bigint;
  size: bigint;
  count: number;
  head: BookEntry | undefined;
  tail: BookEntry | undefined;
}

/**
 * One side of one token's book. Prices are kept sorted worst-first so the best level is the last
 * element: consuming the touch, the hot path of matching, is an O(1) pop. Calls `onLevelChange`
 * with the level's size *before* each change so the owning book can diff levels per operation.
 */
export class BookSide {
  readonly side: Side;
  readonly #levels = new Map<bigint, Level>();
  readonly #prices: bigint[] = [];
  readonly #onLevelChange: (price: bigint, sizeBefore: bigint) => void;

  constructor(side: Side, onLevelChange: (price: bigint, sizeBefore: bigint) => void) {
    this.side = side;
    this.#onLevelChange = onLevelChange;
  }

  /** The best level (highest bid, lowest ask), if any. */
  best(): Level | undefined {
    const p = this.#prices[this.#prices.length - 1];
    return p === undefined ? undefined : this.#levels.get(p);
  }

  /** The level at a price, if any order rests there. */
  level(price: bigint): Level | undefined {
    return this.#levels.get(price);
  }

  /** Number of non-empty levels. */
  get depth(): number {
    return this.#prices.length;
  }

  /** Adds an order's remaining quantity at the back of its price level. */
  append(order: VenueOrder, size: bigint): BookEntry {
    let level = this.#levels.get(order.price);
    if (level === undefined) {
      level = { price: order.price, size: 0n, count: 0, head: undefined, tail: undefined };
      this.#levels.set(order.price, level);
      this.#insertPrice(order.price);
    }
    this.#onLevelChange(level.price, level.size);
    const entry: BookEntry = { order, level, size, prev: level.tail, next: undefined };
    if (level.tail === undefined) level.head = entry;
    else level.tail.next = entry;
    level.tail = entry;
    level.size += size;
    level.count += 1;
    return entry;
  }

  /** Takes `qty` off an entry (a fill); unlinks it when nothing is left. */
  reduce(entry: BookEntry, qty: bigint): void {
    this.#onLevelChange(entry.level.price, entry.level.size);
    entry.size -= qty;
    entry.level.size -= qty;
    if (entry.size === 0n) this.#unlink(entry);
  }

  /** Sets an entry's size in place, keeping its time priority (an amend); `size` must be above 0. */
  resize(entry: BookEntry, size: bigint): void {
    this.#onLevelChange(entry.level.price, entry.level.size);
    entry.level.size += size - entry.size;
    entry.size = size;
  }

  /** Removes an entry whatever its size (cancel, expiry, self-trade prevention). */
  remove(entry: BookEntry): void {
    this.#onLevelChange(entry.level.price, entry.level.size);
    entry.level.size -= entry.size;
    entry.size = 0n;
    this.#unlink(entry);
  }

  /** Levels best-first, at most `depth` of them. */
  levels(depth: number): Level[] {
    const out: Level[] = [];
    for (let i = this.#prices.length - 1; i >= 0 && out.length < depth; i--) {
      const level = this.#levels.get(this.#prices[i] as bigint);
      if (level !== undefined) out.push(level);
    }
    return out;
  }

  /** Resting entries in priority order (best price first, then time). */
  *entries(): Generator<BookEntry> {
    for (let i = this.#prices.length - 1; i >= 0; i--) {
      for (let e = this.#levels.get(this.#prices[i] as bigint)?.head; e !== undefined; e = e.next) yield e;
    }
  }

  /** True when `price` is better than `other` for this side. */
  better(price: bigint, other: bigint): boolean {
    return this.side === "buy" ? price > other : price < other;
  }

  #unlink(entry: BookEntry): void {
    const level = entry.level;
    if (entry.prev === undefined) level.head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === undefined) level.tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = undefined;
    entry.next = undefined;
    level.count -= 1;
    if (level.count === 0) {
      this.#levels.delete(level.price);
      this.#removePrice(level.price);
    }
  }

  // Sorted worst-first: bids ascending, asks descending.
  #index(price: bigint): number {
    let lo = 0;
    let hi = this.#prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(price, this.#prices[mid] as bigint)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #insertPrice(price: bigint): void {
    this.#prices.splice(this.#index(price), 0, price);
  }

  #removePrice(price: bigint): void {
    const last = this.#prices.length - 1;
    if (this.#prices[last] === price) {
      this.#prices.pop();
      return;
    }
    const i = this.#index(price);
    if (this.#prices[i] === price) this.#prices.splice(i, 1);
  }
}
