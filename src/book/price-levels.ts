/** A side of a price-level book: bids (buyers) or asks (sellers). */
export type BookSide = "bid" | "ask";

/** One aggregated price level: price and total size, both in micro-units. */
export interface Level {
  readonly price: number;
  readonly size: bigint;
}

/** Read-only queries of one side of a book (what BookView exposes). */
export interface LevelsView {
  readonly side: BookSide;
  readonly length: number;
  bestPrice(): number | undefined;
  bestSize(): bigint | undefined;
  at(rank: number): Level | undefined;
  sizeAt(price: number): bigint;
  sizeBetterThan(price: number): bigint;
  sizeThrough(price: number): bigint;
  top(n: number): Level[];
  equals(other: LevelsView): boolean;
}

/**
 * One side of a book as two parallel arrays sorted by a key that grows towards the best price:
 * key = price for bids, −price for asks. The best level is therefore always the LAST element, so
 * reading the touch is O(1) and the busy levels near the touch are cheap to insert and remove
 * (splice shifts only the few elements after them). Lookups are a binary search; books hold at
 * most a few hundred levels, where a sorted array beats any tree.
 */
export class PriceLevels implements LevelsView {
  readonly side: BookSide;
  readonly #sign: 1 | -1;
  #keys: number[] = [];
  #sizes: bigint[] = [];

  constructor(side: BookSide) {
    this.side = side;
    this.#sign = side === "bid" ? 1 : -1;
  }

  /** Number of levels. */
  get length(): number {
    return this.#keys.length;
  }

  /**
   * Sets the total size at `price` (micro-units); 0n removes the level. The elements after the
   * level are shifted by hand: splice would allocate the array of removed elements on every call,
   * and this runs once per level change (a backtest's replay: several per recorded frame).
   */
  set(price: number, size: bigint): void {
    const keys = this.#keys;
    const sizes = this.#sizes;
    const key = this.#sign * price;
    const i = lowerBound(keys, key);
    const n = keys.length;
    if (i < n && keys[i] === key) {
      if (size !== 0n) {
        sizes[i] = size;
        return;
      }
      if (n - i > SHIFT_BY_HAND) {
        keys.splice(i, 1);
        sizes.splice(i, 1);
        return;
      }
      for (let j = i + 1; j < n; j++) {
        keys[j - 1] = keys[j] as number;
        sizes[j - 1] = sizes[j] as bigint;
      }
      keys.pop();
      sizes.pop();
    } else if (size !== 0n) {
      if (n - i > SHIFT_BY_HAND) {
        keys.splice(i, 0, key);
        sizes.splice(i, 0, size);
        return;
      }
      keys.push(key);
      sizes.push(size);
      for (let j = n; j > i; j--) {
        keys[j] = keys[j - 1] as number;
        sizes[j] = sizes[j - 1] as bigint;
      }
      keys[i] = key;
      sizes[i] = size;
    }
  }

  /** Replaces every level. Zero sizes are skipped; for a price listed twice the last entry wins. */
  replace(prices: readonly number[], sizes: readonly bigint[], from = 0, to = prices.length): void {
    const order: number[] = [];
    for (let i = from; i < to; i++) order.push(i);
    // Stable sort by key, so among equal keys the later entry comes last and is the one kept.
    order.sort((a, b) => this.#sign * ((prices[a] as number) - (prices[b] as number)));
    const keys: number[] = [];
    const out: bigint[] = [];
    for (let j = 0; j < order.length; j++) {
      const i = order[j] as number;
      const next = order[j + 1];
      if (next !== undefined && prices[next] === prices[i]) continue;
      const size = sizes[i] as bigint;
      if (size === 0n) continue;
      keys.push(this.#sign * (prices[i] as number));
      out.push(size);
    }
    this.#keys = keys;
    this.#sizes = out;
  }

  /** Removes every level. */
  clear(): void {
    this.#keys = [];
    this.#sizes = [];
  }

  /** Best price (highest bid, lowest ask) in micro-units; undefined when the side is empty. */
  bestPrice(): number | undefined {
    const k = this.#keys[this.#keys.length - 1];
    return k === undefined ? undefined : this.#sign * k;
  }

  /** Size at the best price; undefined when the side is empty. */
  bestSize(): bigint | undefined {
    return this.#sizes[this.#sizes.length - 1];
  }

  /** The level `rank` steps from the best (0 = best); undefined past the end. */
  at(rank: number): Level | undefined {
    const i = this.#keys.length - 1 - rank;
    if (rank < 0 || i < 0) return undefined;
    return { price: this.#sign * (this.#keys[i] as number), size: this.#sizes[i] as bigint };
  }

  /** Total size resting exactly at `price`; 0n when there is no level there. */
  sizeAt(price: number): bigint {
    const key = this.#sign * price;
    const i = lowerBound(this.#keys, key);
    return this.#keys[i] === key ? (this.#sizes[i] as bigint) : 0n;
  }

  /** Total size at prices strictly better than `price` (above it for bids, below it for asks). */
  sizeBetterThan(price: number): bigint {
    return this.#sumFrom(upperBound(this.#keys, this.#sign * price));
  }

  /** Total size at `price` and every better price: what a taker sweeping to `price` can take. */
  sizeThrough(price: number): bigint {
    return this.#sumFrom(lowerBound(this.#keys, this.#sign * price));
  }

  /** Up to `n` levels, best first. */
  top(n: number): Level[] {
    const out: Level[] = [];
    const last = this.#keys.length - 1;
    for (let r = 0; r < n && r <= last; r++) {
      out.push({
        price: this.#sign * (this.#keys[last - r] as number),
        size: this.#sizes[last - r] as bigint,
      });
    }
    return out;
  }

  /** True when both hold exactly the same levels on the same side. */
  equals(other: LevelsView): boolean {
    if (other.side !== this.side || other.length !== this.length) return false;
    if (!(other instanceof PriceLevels)) {
      return this.top(this.length).every((l, r) => {
        const o = other.at(r);
        return o !== undefined && o.price === l.price && o.size === l.size;
      });
    }
    const a = this.#keys;
    const b = other.#keys;
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i] || this.#sizes[i] !== other.#sizes[i]) return false;
    }
    return true;
  }

  #sumFrom(i: number): bigint {
    let sum = 0n;
    for (let j = i; j < this.#sizes.length; j++) sum += this.#sizes[j] as bigint;
    return sum;
  }
}

// Up to this many elements after a level are shifted by hand; more are left to splice (a memmove,
// plus the small array it returns), which wins on a deep level of a long side (measured, session 15).
const SHIFT_BY_HAND = 24;

/** First index whose key is ≥ `key`. */
function lowerBound(keys: readonly number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as number) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is > `key`. */
function upperBound(keys: readonly number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as number) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
