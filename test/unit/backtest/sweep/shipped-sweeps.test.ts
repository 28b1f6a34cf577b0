import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandGrid, parseSweepFile, pointStrategies } from "../../../../src/backtest/sweep/grid.js";
import { packageRoot } from "../../../../src/config/paths.js";

/* The sweep files README's examples name, each with the config it is run with there. */
const read = (name: string): unknown =>
  JSON.parse(readFileSync(join(packageRoot(), "config/backtest", name), "utf8"));

describe("the shipped sweep files", () => {
  it.each([
    ["as-paper-sweep.json", "as-paper.json", 6],
    ["bands-sweep.json", "bands-replay.json", 4],
  ])("%s expands into points that %s's strategy accepts", (sweepFile, configFile, points) => {
    const spec = parseSweepFile(read(sweepFile));
    const grid = expandGrid(spec.axes);
    expect(grid).toHaveLength(points);
    const strategy = (read(configFile) as { strategy: unknown }).strategy;
    expect(pointStrategies(spec, strategy, grid)).toHaveLength(points);
  });

  it("README runs them by those paths", () => {
    const readme = readFileSync(join(packageRoot(), "README.md"), "utf8");
    expect(readme).toContain("--sweep config/backtest/as-paper-sweep.json");
    expect(readme).toContain("--sweep config/backtest/bands-sweep.json");
  });
});
