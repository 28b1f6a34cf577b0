/** A step series as the report embeds it: times relative to the run's start, values or null (no value). */
export interface SeriesJson {
  /** Milliseconds since the start of the run, ascending. */
  readonly t: number[];
  /** The value from t[i] on (the last observation in the bucket); null = no value (a gap). */
  readonly v: (number | null)[];
  /** Lowest and highest value observed in the bucket (equal to v when the bucket holds one change). */
  readonly lo: (number | null)[];
  readonly hi: (number | null)[];
  /** Width of a bucket at the end, ms (1 = every change at millisecond resolution was kept). */
  readonly bucketMs: number;
  /** Observations offered (changes or not). */
  readonly observations: number;
}

/**
 * A step function of time (the value holds until the next change) kept in at most `maxPoints`
 * points whatever the run's length: only changes are stored, into time buckets of `bucketMs` from
 * the origin; when the points exceed the cap, the width doubles and neighbouring buckets merge
 * (keeping the later time and value, the lowest and highest value of both), until at most half the
 * cap is used. Memory is O(maxPoints); each observation is amortised O(1). Min/max per bucket keep
 * spikes visible after decimation. NaN stands for "no value" (a gap in the line).
 * @example
 * const s = new StepSeries(0, 1000);
 * s.add(5, 0.5); s.add(9, 0.51); s.finish(20);
 * s.json(6).v // [0.5, 0.51, 0.51]
 */
export class StepSeries {
  readonly #origin: number;
  readonly #max: number;
  #width = 1;
  readonly #idx: number[] = [];
  readonly #t: number[] = [];
  readonly #v: number[] = [];
  readonly #lo: number[] = [];
  readonly #hi: number[] = [];
  #current = Number.NaN;
  #started = false;
  #observations = 0;

  /** `maxPoints` ≥ 4; times before `origin` count as the origin. */
  constructor(origin: number, maxPoints: number) {
    this.#origin = origin;
    this.#max = Math.max(4, Math.floor(maxPoints));
  }

  /** The value is `v` (NaN: none) from time `t` on; times must not go backwards. */
  add(t: number, v: number): void {
    this.#observations++;
    if (this.#started && Object.is(v, this.#current)) return;
    this.#started = true;
    this.#current = v;
    this.#put(Math.max(t, this.#origin) - this.#origin, v);
  }

  /** Closes the series at `endMs`: the last value is repeated there so the line reaches the end. */
  finish(endMs: number): void {
    const rel = Math.max(endMs, this.#origin) - this.#origin;
    const n = this.#t.length;
    if (n === 0 || (this.#t[n - 1] as number) >= rel) return;
    if (n >= this.#max) while (this.#t.length > this.#max / 2) this.#halve();
    // A point of its own even in the last bucket: the end of the line is exact.
    this.#idx.push(Number.POSITIVE_INFINITY);
    this.#t.push(rel);
    this.#v.push(this.#current);
    this.#lo.push(this.#current);
    this.#hi.push(this.#current);
  }

  /** Points stored now. */
  get length(): number {
    return this.#t.length;
  }

  /** The series as embedded JSON, values rounded to `digits` decimals. */
  json(digits: number): SeriesJson {
    const r = (x: number): number | null => (Number.isFinite(x) ? round(x, digits) : null);
    return {
      t: [...this.#t],
      v: this.#v.map(r),
      lo: this.#lo.map(r),
      hi: this.#hi.map(r),
      bucketMs: this.#width,
      observations: this.#observations,
    };
  }

  #put(rel: number, v: number): void {
    const i = Math.floor(rel / this.#width);
    const n = this.#t.length;
    if (n > 0 && this.#idx[n - 1] === i) {
      this.#t[n - 1] = rel;
      this.#v[n - 1] = v;
      this.#lo[n - 1] = lower(this.#lo[n - 1] as number, v);
      this.#hi[n - 1] = higher(this.#hi[n - 1] as number, v);
      return;
    }
    this.#idx.push(i);
    this.#t.push(rel);
    this.#v.push(v);
    this.#lo.push(v);
    this.#hi.push(v);
    if (n + 1 > this.#max) while (this.#t.length > this.#max / 2) this.#halve();
  }

  // Doubles the bucket width and merges the buckets that now share an index (two at most).
  #halve(): void {
    this.#width *= 2;
    let w = 0;
    for (let r = 0; r < this.#t.length; r++) {
      const i = Math.floor((this.#idx[r] as number) / 2);
      if (w > 0 && this.#idx[w - 1] === i) {
        this.#t[w - 1] = this.#t[r] as number;
        this.#v[w - 1] = this.#v[r] as number;
        this.#lo[w - 1] = lower(this.#lo[w - 1] as number, this.#lo[r] as number);
        this.#hi[w - 1] = higher(this.#hi[w - 1] as number, this.#hi[r] as number);
      } else {
        this.#idx[w] = i;
        this.#t[w] = this.#t[r] as number;
        this.#v[w] = this.#v[r] as number;
        this.#lo[w] = this.#lo[r] as number;
        this.#hi[w] = this.#hi[r] as number;
        w++;
      }
    }
    for (const a of [this.#idx, this.#t, this.#v, this.#lo, this.#hi]) a.length = w;
  }
}

/**
 * At most `max` items of a stream, evenly thinned: items are kept at a stride (1, then 2, 4, …);
 * when the kept items exceed the cap, every second one goes and the stride doubles. The kept items
 * are exactly those whose position in the stream is a multiple of the final stride.
 * @example const s = new Thinned<number>(2); for (let i = 0; i < 5; i++) s.add(i); s.items // [0, 4]
 */
export class Thinned<T> {
  readonly #max: number;
  #items: T[] = [];
  #stride = 1;
  #seen = 0;

  constructor(max: number) {
    this.#max = Math.max(1, Math.floor(max));
  }

  /** Offers the next item of the stream. */
  add(item: T): void {
    if (this.#seen++ % this.#stride !== 0) return;
    this.#items.push(item);
    if (this.#items.length > this.#max) {
      this.#items = this.#items.filter((_, i) => i % 2 === 0);
      this.#stride *= 2;
    }
  }

  /** The kept items, in stream order. */
  get items(): readonly T[] {
    return this.#items;
  }

  /** Items offered. */
  get seen(): number {
    return this.#seen;
  }

  /** Every `stride`-th item is kept. */
  get stride(): number {
    return this.#stride;
  }
}

/** `x` rounded to `digits` decimals (-0 → 0). */
export function round(x: number, digits: number): number {
  const r = Number(x.toFixed(digits));
  return r === 0 ? 0 : r;
}

// Min/max ignoring NaN (the "no value" marker) unless both are NaN.
function lower(a: number, b: number): number {
  return Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b);
}
function higher(a: number, b: number): number {
  return Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b);
}
