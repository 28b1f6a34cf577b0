import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../../src/backtest/errors.js";
import { MAX_POINTS, readSweepFile, sweepStrategies } from "../../../../src/backtest/sweep/grid.js";

/*
 * A sweep file's problems are named in one sweep_invalid error, the grid over 10,000 points among
 * them. The size is the grid's as written: an axis left out of the points for another problem (an
 * overlap, a key that is no path) still counts. Counted over the kept axes only, a 100 x 50 x 10 grid
 * whose third axis overlaps the first was reported for the overlap alone, and the operator who fixed
 * it met "grid: 50000 points, more than the 10000" on the next try (review22-rcli).
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
    expect(issues).toContain(`grid: 50000 points, more than the ${MAX_POINTS} a sweep may run`);
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

  it("an axis left out still stays out of the points checked: its values are not blamed", () => {
    const read = readSweepFile({ grid: { gamma: [10, 20], "gamma.x": ["not a number"] } });
    expect(issuesOf(() => sweepStrategies(read, AS))).toEqual(["grid.gamma.x: overlaps grid.gamma"]);
  });
});
