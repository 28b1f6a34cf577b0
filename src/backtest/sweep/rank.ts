import type { Decimal } from "decimal.js";
import type { GridPoint } from "./grid.js";
import type { Metric } from "./metric.js";

/** Why a grid point has no summary. */
export interface PointError {
  readonly code: string;
  readonly message: string;
}

/** What became of one grid point. */
export type PointOutcome =
  | (GridPoint & { readonly status: "ok"; readonly summary: unknown })
  | (GridPoint & { readonly status: "failed"; readonly error: PointError });

/** A successful point in ranked order. */
export interface RankedPoint {
  /**
   * 1 = best. Points whose values are equal share a rank, and the next distinct value skips the
   * shared places (1, 1, 3): a tie listed as ranks 1 and 2 reads as a winner that is not one.
   */
  readonly rank: number;
  readonly point: number;
  readonly params: GridPoint["params"];
  /** The metric's value; undefined when the summary has none (e.g. a Sharpe ratio without samples). */
  readonly value: Decimal | undefined;
  readonly summary: unknown;
}

/**
 * Ranks the successful points by `metric` in its order; points without a value come last; ties
 * (and points without a value) keep grid order, so the same outcomes always list the same, and
 * share their rank (competition ranking: 1, 1, 3).
 * @example rankPoints(outcomes, parseMetric("maxDrawdown", "replay"))[0].point // smallest drawdown
 */
export function rankPoints(outcomes: readonly PointOutcome[], metric: Metric): RankedPoint[] {
  const rows = outcomes
    .filter((o) => o.status === "ok")
    .map((o) => ({ point: o.point, params: o.params, summary: o.summary, value: metric.read(o.summary) }));
  const sign = metric.order === "desc" ? -1 : 1;
  rows.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      if (a.value !== b.value) return a.value === undefined ? 1 : -1;
    } else {
      const c = a.value.comparedTo(b.value);
      if (c !== 0) return sign * c;
    }
    return a.point - b.point;
  });
  let rank = 0;
  return rows.map((r, i) => {
    const prev = rows[i - 1];
    if (prev === undefined || !sameValue(prev.value, r.value)) rank = i + 1;
    return { rank, ...r };
  });
}

function sameValue(a: Decimal | undefined, b: Decimal | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.eq(b);
}
