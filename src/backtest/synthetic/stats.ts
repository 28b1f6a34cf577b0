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

/** A MeanStd as JSON: decimal strings rounded half-even to `decimals` places. */
export function meanStdJson(m: MeanStd, decimals = 9): { mean: string; std: string } {
  return {
    mean: m.mean.toDecimalPlaces(decimals, Dec.ROUND_HALF_EVEN).toFixed(),
    std: m.std.toDecimalPlaces(decimals, Dec.ROUND_HALF_EVEN).toFixed(),
  };
}
