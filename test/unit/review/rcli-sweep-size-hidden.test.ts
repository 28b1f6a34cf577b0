import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../src/backtest/errors.js";
import { MAX_POINTS, readSweepFile, sweepStrategies } from "../../../src/backtest/sweep/grid.js";

/*
 * Review of s22-cli (8ed1d07): "every problem named in one sweep_invalid error … more than 10,000
 * points", and "the size check now always runs". But the size is counted over the axes kept after
 * an overlapping axis (or one whose key is not a path) was left out of the grid. A file whose grid,
 * as written, is 100 x 50 x 10 = 50,000 points, with its third axis overlapping the first, is
 * reported for the overlap only. The operator who fixes the overlap by pointing that axis at another
 * parameter (the obvious fix: "gamma.x" meant "sigma") then meets "grid: 50000 points, more than
 * the 10000" on the next try: the stage-by-stage report the commit set out to end.
 */

const AS = {
  name: "avellaneda-stoikov",
  params: { gamma: 20, k: 300, orderSize: "1", sigma: 0.0001666, variant: "inventory" },
};

function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof BacktestError) return err.details.issues as string[];
    throw err;
  }
  return [];
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("a sweep grid over the point limit is named even when one of its axes is refused", () => {
  it("an overlapping axis still counts in the grid's size", () => {
    const read = readSweepFile({ grid: { gamma: range(100), k: range(50), "gamma.x": range(10) } });
    const issues = issuesOf(() => sweepStrategies(read, AS));
    expect(issues).toContain("grid.gamma.x: overlaps grid.gamma");
    expect(
      issues.some((i) => /^grid: \d+ points, more than the /.test(i)),
      issues.join("\n"),
    ).toBe(true);
    expect(100 * 50 * 10).toBeGreaterThan(MAX_POINTS);
  });

  it("an axis whose key is not a path still counts in the grid's size", () => {
    const read = readSweepFile({ grid: { gamma: range(100), k: range(50), "sig ma": range(10) } });
    const issues = issuesOf(() => sweepStrategies(read, AS));
    expect(issues.some((i) => i.startsWith("grid.sig ma: not a parameter path"))).toBe(true);
    expect(
      issues.some((i) => /^grid: \d+ points, more than the /.test(i)),
      issues.join("\n"),
    ).toBe(true);
  });
});
