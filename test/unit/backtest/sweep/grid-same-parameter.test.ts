import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../../src/backtest/errors.js";
import { expandGrid, parseSweepFile, pointStrategies } from "../../../../src/backtest/sweep/grid.js";

/*
 * README "Sweeps": "Everything is checked before any backtest starts, with exit code 2 and every
 * problem named: … two axes setting the same parameter, …". grid.ts `overlaps` compares the keys'
 * text, not the parsed paths, so `bands[0].size` and `bands[00].size` (both parse to
 * ["bands", 0, "size"]) pass. The later axis then overwrites the earlier one in every point: the
 * sweep runs 4 points that are 2 distinct runs, and the table/results label them with
 * `bands[0].size` values (10, 20) that no point ran with.
 */

const BANDS = { name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } };

function sweepIssues(raw: unknown): string[] {
  try {
    const spec = parseSweepFile(raw);
    pointStrategies(spec, BANDS, expandGrid(spec.axes));
  } catch (err) {
    if (err instanceof BacktestError && err.code === "sweep_invalid") return err.details.issues as string[];
    throw err;
  }
  return [];
}

describe("sweep grid: two axes that set the same parameter", () => {
  it("refuses bands[0].size next to bands[00].size (the same parameter spelled twice)", () => {
    const issues = sweepIssues({ grid: { "bands[0].size": ["10", "20"], "bands[00].size": ["30", "40"] } });
    expect(issues.some((i) => i.includes("overlaps"))).toBe(true);
  });
});
