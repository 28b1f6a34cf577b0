/**
 * A binary min-heap under a caller-given order. Used for order expiries; a backtest latency model
 * can queue delayed venue operations on the same structure.
 */
export class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #less: (a: T, b: T) => boolean;

  /** `less(a, b)`: a comes out before b. Make it total (break ties) for deterministic order. */
  constructor(less: (a: T, b: T) => boolean) {
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  /** The next item out, without removing it. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds an item. */
  push(item: T): void {
    const a = this.#items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(a[i] as T, a[parent] as T)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  /** Removes and returns the smallest item. */
  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.#less(a[l] as T, a[m] as T)) m = l;
      if (r < a.length && this.#less(a[r] as T, a[m] as T)) m = r;
      if (m === i) break;
      this.#swap(i, m);
      i = m;
    }
    return top;
  }

  #swap(i: number, j: number): void {
    const a = this.#items;
    const t = a[i] as T;
    a[i] = a[j] as T;
    a[j] = t;
  }
}
