import type { Keyset, Page } from "./types.js";

/** Orders keysets by createdAt, then id (string order): the total order pages are cut from. */
export function compareKeyset(a: Keyset, b: Keyset): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Whether a count-capped store holding `size` items must trim back to `cap`. Trims come in batches:
 * a store grows to cap + ⌈cap/8⌉ before dropping back to cap, so the O(n) pass a trim costs is paid
 * once per ⌈cap/8⌉ additions rather than on every one. Never true for an infinite cap.
 * @example overCap(113, 100) // true
 */
export function overCap(size: number, cap: number): boolean {
  return size > cap + Math.ceil(cap / 8);
}

/**
 * A list kept sorted ascending by (createdAt, id), read newest first in keyset pages. Inserts are
 * appends in the usual case (the clock moves forward); an out-of-order timestamp is placed by
 * binary search. Paging by key rather than offset is what keeps pages stable under inserts: a
 * newer item never shifts an older page.
 */
export class KeysetList<T> {
  readonly #items: T[] = [];
  readonly #key: (item: T) => Keyset;

  constructor(key: (item: T) => Keyset) {
    this.#key = key;
  }

  get size(): number {
    return this.#items.length;
  }

  /** Adds an item at its key's place. */
  insert(item: T): void {
    const k = this.#key(item);
    const last = this.#items[this.#items.length - 1];
    if (last === undefined || compareKeyset(this.#key(last), k) < 0) {
      this.#items.push(item);
      return;
    }
    this.#items.splice(this.#lowerBound(k), 0, item);
  }

  /**
   * Up to `limit` items strictly older than `after` (all when undefined) that pass `filter`,
   * newest first. `next` is the key of the last item returned when more may follow.
   */
  page(after: Keyset | undefined, limit: number, filter: (item: T) => boolean): Page<T> {
    const items: T[] = [];
    let i = (after === undefined ? this.#items.length : this.#lowerBound(after)) - 1;
    for (; i >= 0 && items.length < limit; i--) {
      const item = this.#items[i] as T;
      if (filter(item)) items.push(item);
    }
    const more = items.length === limit && this.#hasMatch(i, filter);
    const last = items[items.length - 1];
    return { items, next: more && last !== undefined ? this.#key(last) : undefined };
  }

  /** Every item, oldest first. */
  all(): readonly T[] {
    return this.#items;
  }

  /** Removes the `n` oldest items (lowest keys) and returns them, oldest first. */
  dropOldest(n: number): T[] {
    return this.#items.splice(0, Math.max(0, n));
  }

  /** Removes every item `pred` selects (one pass); returns how many went. */
  removeIf(pred: (item: T) => boolean): number {
    const before = this.#items.length;
    let w = 0;
    for (const item of this.#items) if (!pred(item)) this.#items[w++] = item;
    this.#items.length = w;
    return before - w;
  }

  #hasMatch(from: number, filter: (item: T) => boolean): boolean {
    for (let i = from; i >= 0; i--) if (filter(this.#items[i] as T)) return true;
    return false;
  }

  // First index whose key is ≥ k.
  #lowerBound(k: Keyset): number {
    let lo = 0;
    let hi = this.#items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeyset(this.#key(this.#items[mid] as T), k) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
