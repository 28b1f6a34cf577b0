import { describe, expect, it } from "vitest";
import { parseMetric, type SummaryContext } from "../../../../src/backtest/sweep/metric.js";
import { type PointOutcome, rankPoints } from "../../../../src/backtest/sweep/rank.js";

/*
 * A strategy parameter a grid sets to a number in some points and to null or a flag in others
 * (a custom strategy's "no limit", say) can rank the sweep: the path is accepted when at least one
 * point's value there is a number, and the points without one rank last, as other missing values
 * do. Review r20: null and booleans counted as text, so `strategy.params.maxX` with a grid
 * [null, 5] was refused although the points with 5 could rank.
 */

const entry = (params: Record<string, unknown>) => ({ name: "custom", params: { gamma: 1, ...params } });
const ctx = (...values: unknown[]): SummaryContext => ({
  strategies: values.map((v) => entry({ maxX: v })),
  horizons: 3,
  paths: 2,
});

const problem = (text: string, c: SummaryContext): string | undefined => {
  try {
    parseMetric(text, "synthetic", c);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe("--rank-by a strategy parameter the grid sets to a number in some points only", () => {
  it("is accepted when at least one point holds a number there, whatever the others hold", () => {
    expect(problem("strategy.params.maxX", ctx(null, 5))).toBeUndefined();
    expect(problem("strategy.params.maxX", ctx(5, null))).toBeUndefined();
    expect(problem("strategy.params.maxX", ctx(true, "0.5", false))).toBeUndefined();
    // A list or object in one point, no number in the other: the container's own numbers.
    expect(problem("strategy.params.maxX.per", ctx(null, { per: 2 }))).toBeUndefined();
    expect(problem("strategy.params.maxX[0]", ctx(false, [3]))).toBeUndefined();
  });

  it("is still refused when no point holds a number there", () => {
    expect(problem("strategy.params.maxX", ctx(null, true))).toMatch(/strategy\.params\.maxX is text/);
    expect(problem("strategy.params.maxX", ctx(null, { per: 2 }))).toMatch(
      /strategy\.params\.maxX is not a number but a part/,
    );
    expect(problem("strategy.params.maxY", ctx(null, 5))).toMatch(/strategy\.params holds gamma, maxX/);
  });

  it("ranks the points without a number last, in grid order", () => {
    const values = [null, 5, true, 7];
    const metric = parseMetric("strategy.params.maxX", "synthetic", ctx(...values));
    const outcomes: PointOutcome[] = values.map((v, i) => ({
      point: i + 1,
      params: { maxX: v },
      status: "ok",
      summary: { strategy: entry({ maxX: v }) },
    }));
    const ranked = rankPoints(outcomes, metric);
    expect(ranked.map((r) => [r.point, r.value?.toFixed()])).toEqual([
      [4, "7"],
      [2, "5"],
      [1, undefined],
      [3, undefined],
    ]);
  });
});
