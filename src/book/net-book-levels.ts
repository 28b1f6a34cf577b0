import type { BookSide, Level, LevelsView } from "./price-levels.js";

/** Our resting sizes at one price of one side, in the order they are taken out of the level. */
export interface OwnAtPrice {
  readonly price: number;
  readonly sizes: readonly bigint[];
}

/**
 * One side of a book with our own sizes taken out, computed on every query from the underlying
 * side (read live) and the few prices we rest at: nothing is copied. A level never goes below zero
 * and a level netted to zero is not there at all (not in `length`, `at`, `top`, the best price…),
 * exactly as if the underlying levels had been copied and our sizes subtracted from the copy.
 *
 * Ranks are resolved against the underlying side by walking our prices best first and keeping the
 * shift they cause (an emptied level moves every worse level up one rank, a level only we create —
 * from a negative own size — moves them down one): `at(rank)` costs O(own prices) underlying lookups, `top(n)` one
 * merge pass. Our prices are few (≤ ~10) where books hold hundreds of levels.
 *
 * Prices are integer micro-units and ranks integers, as everywhere in src/book.
 */
export class NetLevels implements LevelsView {
  readonly side: BookSide;
  readonly #base: LevelsView;
  /** Our prices on this side, best first, each once. */
  readonly #own: readonly OwnAtPrice[];
  readonly #sign: 1 | -1;

  /** `own` must hold each price once, sorted best first (see {@link groupOwn}). */
  constructor(base: LevelsView, own: readonly OwnAtPrice[]) {
    this.side = base.side;
    this.#base = base;
    this.#own = own;
    this.#sign = base.side === "bid" ? 1 : -1;
  }

  /** Number of levels left once our sizes are out. */
  get length(): number {
    let n = this.#base.length;
    for (const p of this.#own) {
      const under = this.#base.sizeAt(p.price);
      const net = netOf(under, p.sizes);
      if (under > 0n && net === 0n) n--;
      else if (under === 0n && net > 0n) n++;
    }
    return n;
  }

  bestPrice(): number | undefined {
    return this.at(0)?.price;
  }

  bestSize(): bigint | undefined {
    return this.at(0)?.size;
  }

  /** The level `rank` steps from the best (0 = best); undefined past the end. */
  at(rank: number): Level | undefined {
    if (rank < 0) return undefined;
    const base = this.#base;
    // The underlying rank answering `rank` is rank − shift, shift counting the levels only we
    // create (+1) and the levels we empty (−1) among our prices already passed. Each underlying
    // level looked at here is worse than every price already passed, so never one of ours.
    let shift = 0;
    for (const p of this.#own) {
      const k = rank - shift;
      const level = base.at(k);
      if (level !== undefined && this.#better(level.price, p.price)) return level;
      if (level !== undefined && level.price === p.price) {
        // Our price sits exactly at the rank asked for.
        const net = netOf(level.size, p.sizes);
        if (net > 0n) return { price: p.price, size: net };
        shift--;
        continue;
      }
      // Our price comes before underlying rank k.
      const under = base.sizeAt(p.price);
      const net = netOf(under, p.sizes);
      if (under > 0n) {
        if (net === 0n) shift--;
      } else if (net > 0n) {
        // A level only we create (a negative own size adds, as the copy's subtraction did), before
        // underlying rank k: it is the one asked for when every level before k is better than it.
        const before = k === 0 ? undefined : base.at(k - 1);
        if (k === 0 || (before !== undefined && this.#better(before.price, p.price))) {
          return { price: p.price, size: net };
        }
        shift++;
      }
    }
    return base.at(rank - shift);
  }

  /** Size resting exactly at `price` once ours is out. */
  sizeAt(price: number): bigint {
    const under = this.#base.sizeAt(price);
    for (const p of this.#own) if (p.price === price) return netOf(under, p.sizes);
    return under;
  }

  /** Size at prices strictly better than `price`. */
  sizeBetterThan(price: number): bigint {
    let sum = this.#base.sizeBetterThan(price);
    for (const p of this.#own) {
      if (!this.#better(p.price, price)) break;
      sum += this.#change(p);
    }
    return sum;
  }

  /** Size at `price` and every better price. */
  sizeThrough(price: number): bigint {
    let sum = this.#base.sizeThrough(price);
    for (const p of this.#own) {
      if (this.#better(price, p.price)) break;
      sum += this.#change(p);
    }
    return sum;
  }

  /** Up to `n` levels, best first: one pass merging the underlying levels with our prices. */
  top(n: number): Level[] {
    const out: Level[] = [];
    const base = this.#base;
    const own = this.#own;
    let k = 0;
    let i = 0;
    let level = base.at(0);
    while (out.length < n) {
      const p = own[i];
      if (p !== undefined && (level === undefined || !this.#better(level.price, p.price))) {
        let under = 0n;
        if (level !== undefined && level.price === p.price) {
          under = level.size;
          level = base.at(++k);
        }
        const net = netOf(under, p.sizes);
        if (net > 0n) out.push({ price: p.price, size: net });
        i++;
      } else if (level !== undefined) {
        out.push(level);
        level = base.at(++k);
      } else {
        break;
      }
    }
    return out;
  }

  /** True when both hold exactly the same levels on the same side. */
  equals(other: LevelsView): boolean {
    if (other.side !== this.side || other.length !== this.length) return false;
    return this.top(Number.POSITIVE_INFINITY).every((l, r) => {
      const o = other.at(r);
      return o !== undefined && o.price === l.price && o.size === l.size;
    });
  }

  /** What taking our sizes out changes at `p`'s price (≤ 0 for positive own sizes). */
  #change(p: OwnAtPrice): bigint {
    const under = this.#base.sizeAt(p.price);
    return netOf(under, p.sizes) - under;
  }

  /** True when price `a` is strictly better than `b` on this side. */
  #better(a: number, b: number): boolean {
    return this.#sign * a > this.#sign * b;
  }
}

/** Our orders grouped by side and price (see {@link NetLevels}). */
export interface OwnBySide {
  readonly bids: OwnAtPrice[];
  readonly asks: OwnAtPrice[];
}

/**
 * Groups our orders by side ("buy" on the bids, anything else on the asks, as OrderBook's side
 * names go) and by price, in the order given within a price, best price first on each side (bids
 * high to low, asks low to high): what {@link NetLevels} expects. One pass with an insertion into a
 * list of a few prices: this runs on every quoting step.
 * @example groupOwn([{ side: "buy", priceMicro: 490_000, sizeMicro: 5n }]).bids // [{ price: 490_000, sizes: [5n] }]
 */
export function groupOwn(
  own: readonly { readonly side: string; readonly priceMicro: number; readonly sizeMicro: bigint }[],
): OwnBySide {
  const bids: { price: number; sizes: bigint[] }[] = [];
  const asks: { price: number; sizes: bigint[] }[] = [];
  for (const o of own) {
    const bid = o.side === "buy";
    const list = bid ? bids : asks;
    const sign = bid ? 1 : -1;
    const key = sign * o.priceMicro;
    // Best first: the first entry not better than this price is where it goes (or joins).
    let i = 0;
    for (const e of list) {
      if (sign * e.price <= key) break;
      i++;
    }
    const at = list[i];
    if (at !== undefined && at.price === o.priceMicro) at.sizes.push(o.sizeMicro);
    else list.splice(i, 0, { price: o.priceMicro, sizes: [o.sizeMicro] });
  }
  return { bids, asks };
}

/** `size` with each of ours taken out in turn, never below zero (as resting orders are matched). */
function netOf(size: bigint, own: readonly bigint[]): bigint {
  let left = size;
  for (const s of own) {
    const next = left - s;
    left = next > 0n ? next : 0n;
  }
  return left;
}
