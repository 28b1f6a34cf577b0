import type { Decimal } from "decimal.js";
import { Dec } from "../../core/decimal.js";

/** Mean and sample standard deviation of decimal values. */
export interface MeanStd {
  readonly n: number;
  readonly mean: Decimal;
  /** √(Σ(x − mean)² / (n − 1)); 0 for fewer than two values. */
  readonly std: Decimal;
}

/**
 * Mean and sample standard deviation (n − 1 denominator, as Monte-Carlo tables report), in
 * decimal.js at 60 significant digits: the mean of money stays exact, the root is rounded once.
 * Two passes over values held in memory: the reference RunningMeanStd is checked against.
 * @example meanStd(["1", "2", "4"]) // mean 2.333…, std 1.527525…
 */
export function meanStd(values: readonly (string | Decimal)[]): MeanStd {
  const xs = values.map((v) => new Dec(v));
  const n = xs.length;
  if (n === 0) return { n, mean: new Dec(0), std: new Dec(0) };
  const mean = xs.reduce((a, x) => a.plus(x), new Dec(0)).div(n);
  if (n < 2) return { n, mean, std: new Dec(0) };
  const ss = xs.reduce((a, x) => a.plus(x.minus(mean).pow(2)), new Dec(0));
  return { n, mean, std: ss.div(n - 1).sqrt() };
}

/**
 * meanStd one value at a time, in constant memory: a synthetic run of up to 1,000,000 paths keeps
 * n, Σx and Σx² instead of every path's figures. The sums of decimal strings are exact (a figure
 * of 6 decimals squared has 12; 10^6 of them stay far inside 60 digits), and the variance is
 * (nΣx² − (Σx)²) / (n(n − 1)) — algebraically Σ(x − mean)² / (n − 1) — divided once, so it equals
 * meanStd's whenever the mean is a finite decimal, and is nearer the exact value when it is not
 * (meanStd subtracts a mean rounded to 60 digits): the figures rounded to 9 decimals agree.
 * @example const s = new RunningMeanStd(); s.add("1"); s.add("2"); s.add("4"); s.result().mean // 2.333…
 */
export class RunningMeanStd {
  #n = 0;
  #sum: Decimal = new Dec(0);
  #sumSq: Decimal = new Dec(0);

  /** Values added so far. */
  get n(): number {
    return this.#n;
  }

  /** Adds one value (a decimal string, a Decimal, or a number at its shortest decimal spelling). */
  add(value: string | number | Decimal): void {
    const x = new Dec(typeof value === "number" ? String(value) : value);
    this.#n++;
    this.#sum = this.#sum.plus(x);
    this.#sumSq = this.#sumSq.plus(x.times(x));
  }

  /** The mean and sample standard deviation of the values added, as meanStd gives them. */
  result(): MeanStd {
    const n = this.#n;
    if (n === 0) return { n, mean: new Dec(0), std: new Dec(0) };
    const mean = this.#sum.div(n);
    if (n < 2) return { n, mean, std: new Dec(0) };
    const q = this.#sumSq.times(n).minus(this.#sum.times(this.#sum));
    // q is exact and never negative for exact sums; the guard only keeps sqrt away from a sign.
    const variance = q.isNegative() ? new Dec(0) : q.div(new Dec(n).times(n - 1));
    return { n, mean, std: variance.sqrt() };
  }
}

/** A MeanStd as JSON: decimal strings rounded half-even to `decimals` places. */
export function meanStdJson(m: MeanStd, decimals = 9): { mean: string; std: string } {
  return {
    mean: m.mean.toDecimalPlaces(decimals, Dec.ROUND_HALF_EVEN).toFixed(),
    std: m.std.toDecimalPlaces(decimals, Dec.ROUND_HALF_EVEN).toFixed(),
  };
}
