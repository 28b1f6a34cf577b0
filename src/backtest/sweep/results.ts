import { Dec } from "../../core/decimal.js";
import type { SweepSpec } from "./grid.js";
import type { Metric, SummaryKind } from "./metric.js";
import type { SweepResult } from "./run-sweep.js";

/**
 * The full results of a sweep as written by `--out`: the grid, the ranking (rank, point, params,
 * the metric's value to 12 decimals or null) and every point in grid order with its params and
 * either its whole JSON summary or its error. No timings: the same inputs give the same bytes.
 * @example writeFileSync("sweep.json", summaryJson(sweepResults({ kind, spec, metric, result })))
 */
export function sweepResults(input: {
  readonly kind: SummaryKind;
  readonly spec: SweepSpec;
  readonly metric: Metric;
  readonly result: SweepResult;
}) {
  const { spec, metric, result } = input;
  return {
    mm: "backtest-sweep",
    version: 1,
    kind: input.kind,
    description: spec.description ?? null,
    rankBy: { metric: metric.name, field: metric.field, order: metric.order },
    grid: Object.fromEntries(spec.axes.map((a) => [a.key, a.values])),
    points: result.outcomes.length,
    failed: result.outcomes.filter((o) => o.status === "failed").length,
    ranking: result.ranked.map((r) => ({
      rank: r.rank,
      point: r.point,
      params: r.params,
      value: r.value === undefined ? null : r.value.toDecimalPlaces(12, Dec.ROUND_HALF_EVEN).toFixed(),
    })),
    results: result.outcomes.map((o) =>
      o.status === "ok"
        ? { point: o.point, params: o.params, status: o.status, summary: o.summary }
        : { point: o.point, params: o.params, status: o.status, error: o.error },
    ),
  };
}
