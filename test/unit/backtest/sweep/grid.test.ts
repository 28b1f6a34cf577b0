import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../../src/backtest/errors.js";
import {
  expandGrid,
  gridSize,
  MAX_POINTS,
  paramsText,
  parseSweepFile,
  pointStrategies,
  readSweepFile,
  sweepStrategies,
} from "../../../../src/backtest/sweep/grid.js";

const AS = {
  name: "avellaneda-stoikov",
  params: { gamma: 1, k: 100, orderSize: "1", sigma: 0.0005 },
};
const BANDS = {
  name: "bands",
  params: {
    reference: "mid",
    bands: [
      { margin: "0.01", size: "10" },
      { margin: "0.02", size: "25" },
    ],
  },
};

/** The `field: problem` lines of a sweep_invalid error. */
function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BacktestError);
    expect((err as BacktestError).code).toBe("sweep_invalid");
    return (err as BacktestError).details.issues as string[];
  }
  throw new Error("expected sweep_invalid");
}

describe("parseSweepFile", () => {
  it("reads the grid in file order with the optional fields", () => {
    const spec = parseSweepFile({
      description: "gamma × k",
      strategy: "avellaneda-stoikov",
      grid: { gamma: [0.05, 0.1, 0.5], k: [1.5, 3] },
      rankBy: "sharpe",
    });
    expect(spec.description).toBe("gamma × k");
    expect(spec.strategy).toBe("avellaneda-stoikov");
    expect(spec.rankBy).toBe("sharpe");
    expect(spec.axes.map((a) => [a.key, a.steps, a.values])).toEqual([
      ["gamma", ["gamma"], [0.05, 0.1, 0.5]],
      ["k", ["k"], [1.5, 3]],
    ]);
    expect(gridSize(spec.axes)).toBe(6);
  });

  it("accepts nested parameter paths", () => {
    const spec = parseSweepFile({ grid: { "bands[1].margin": ["0.02", "0.03"] } });
    expect(spec.axes[0]?.steps).toEqual(["bands", 1, "margin"]);
    expect(spec.strategy).toBeUndefined();
    expect(spec.rankBy).toBeUndefined();
  });

  it("names every bad field", () => {
    expect(issuesOf(() => parseSweepFile([1, 2]))).toEqual(["(root): must be a JSON object"]);
    expect(issuesOf(() => parseSweepFile({}))).toEqual(["grid: is required"]);
    expect(issuesOf(() => parseSweepFile({ grid: {} }))).toEqual([
      "grid: must be a non-empty object of parameter → array of values",
    ]);
    expect(
      issuesOf(() =>
        parseSweepFile({
          grids: 1,
          strategy: 3,
          rankBy: "",
          grid: { gamma: [], k: 3, "bad key": [1], "x..y": [1], "q[a]": [1] },
        }),
      ),
    ).toEqual([
      "grids: unknown setting",
      "strategy: must be a non-empty string",
      "rankBy: must be a non-empty string",
      "grid.gamma: must be a non-empty array of values",
      "grid.k: must be a non-empty array of values",
      'grid.bad key: not a parameter path (e.g. "gamma" or "bands[0].margin")',
      'grid.x..y: not a parameter path (e.g. "gamma" or "bands[0].margin")',
      'grid.q[a]: not a parameter path (e.g. "gamma" or "bands[0].margin")',
    ]);
  });

  it("refuses repeated values and axes that set the same parameter", () => {
    expect(issuesOf(() => parseSweepFile({ grid: { gamma: [0.1, 0.2, 0.1] } }))).toEqual([
      "grid.gamma[2]: repeats grid.gamma[0] (0.1)",
    ]);
    expect(issuesOf(() => parseSweepFile({ grid: { bands: [[]], "bands[0].margin": ["0.01"] } }))).toEqual([
      "grid.bands[0].margin: overlaps grid.bands",
    ]);
  });

  it("caps the number of points", () => {
    const values = Array.from({ length: 101 }, (_, i) => i + 1);
    expect(issuesOf(() => parseSweepFile({ grid: { a: values, b: values } }))).toEqual([
      `grid: 10201 points, more than the ${MAX_POINTS} a sweep may run`,
    ]);
  });

  it("says which file problem it is in the message", () => {
    expect(() => parseSweepFile({ grid: { gamma: "0.1" } })).toThrow(
      /sweep file is invalid:\n {2}grid.gamma: must be a non-empty array/,
    );
  });
});

describe("expandGrid", () => {
  it("is the cartesian product, last axis fastest, numbered from 1", () => {
    const spec = parseSweepFile({ grid: { a: [1, 2], b: ["x", "y", "z"] } });
    expect(expandGrid(spec.axes)).toEqual([
      { point: 1, params: { a: 1, b: "x" } },
      { point: 2, params: { a: 1, b: "y" } },
      { point: 3, params: { a: 1, b: "z" } },
      { point: 4, params: { a: 2, b: "x" } },
      { point: 5, params: { a: 2, b: "y" } },
      { point: 6, params: { a: 2, b: "z" } },
    ]);
  });

  it("keeps the axes' order in each point's params", () => {
    const spec = parseSweepFile({ grid: { z: [1], a: [2], m: [3] } });
    expect(Object.keys(expandGrid(spec.axes)[0]?.params ?? {})).toEqual(["z", "a", "m"]);
  });
});

describe("pointStrategies", () => {
  it("sets each point's values in a copy of the config's strategy", () => {
    const spec = parseSweepFile({ grid: { gamma: [0.5, 2], variant: ["symmetric"] } });
    const points = expandGrid(spec.axes);
    const out = pointStrategies(spec, AS, points);
    expect(out).toEqual([
      { name: AS.name, params: { ...AS.params, gamma: 0.5, variant: "symmetric" } },
      { name: AS.name, params: { ...AS.params, gamma: 2, variant: "symmetric" } },
    ]);
    expect(AS.params.gamma).toBe(1);
  });

  it("reaches into arrays", () => {
    const spec = parseSweepFile({ grid: { "bands[1].margin": ["0.03", "0.05"] } });
    const out = pointStrategies(spec, BANDS, expandGrid(spec.axes)) as (typeof BANDS)[];
    expect(out.map((s) => s.params.bands)).toEqual([
      [BANDS.params.bands[0], { margin: "0.03", size: "25" }],
      [BANDS.params.bands[0], { margin: "0.05", size: "25" }],
    ]);
  });

  it("blames the grid value the strategy refuses", () => {
    const spec = parseSweepFile({ grid: { gamma: ["0.05", 0.1, -1], k: [1, 2] } });
    expect(issuesOf(() => pointStrategies(spec, AS, expandGrid(spec.axes)))).toEqual([
      'grid.gamma = "0.05": must be a JSON number: 0.05, not "0.05"',
      "grid.gamma = -1: must be > 0",
    ]);
  });

  it("blames the point when only the combination is wrong", () => {
    const spec = parseSweepFile({ grid: { "bands[0].margin": ["0.01", "0.03"] } });
    expect(issuesOf(() => pointStrategies(spec, BANDS, expandGrid(spec.axes)))).toEqual([
      "grid point 2 bands[0].margin=0.03: strategy.params.bands[1].margin: margins must be strictly increasing (nearest band first)",
    ]);
  });

  it("refuses paths the config's parameters do not have", () => {
    const spec = parseSweepFile({
      grid: { "bands[2].margin": ["0.05"], "levels.first": [1], "reference[0]": ["mid"] },
    });
    expect(issuesOf(() => pointStrategies(spec, BANDS, expandGrid(spec.axes)))).toEqual([
      "grid.bands[2].margin: the config's strategy.params.bands has no element [2] (length 2)",
      "grid.levels.first: the config's strategy.params.levels is absent",
      "grid.reference[0]: the config's strategy.params.reference is not an array",
    ]);
  });

  it("refuses a sweep written for another strategy", () => {
    const spec = parseSweepFile({ strategy: "glft", grid: { gamma: [1] } });
    expect(issuesOf(() => pointStrategies(spec, AS, expandGrid(spec.axes)))).toEqual([
      'strategy: the sweep is for "glft" but the config\'s strategy is "avellaneda-stoikov"',
    ]);
  });
});

describe("sweepStrategies", () => {
  it("names the file's own problems with the values the strategy refuses, in one error", () => {
    const raw = { strategy: "avellaneda-stoikov", grid: { gamma: [2, "0.05", 2, -1], "k.x": [1] }, extra: 1 };
    expect(issuesOf(() => sweepStrategies(readSweepFile(raw), AS))).toEqual([
      "extra: unknown setting",
      "grid.gamma[2]: repeats grid.gamma[0] (2)",
      "grid.k.x: the config's strategy.params.k is not an object",
      'grid.gamma = "0.05": must be a JSON number: 0.05, not "0.05"',
      "grid.gamma = -1: must be > 0",
    ]);
  });

  it("checks no point against another strategy's validator, nor a grid over the limit", () => {
    const other = readSweepFile({ strategy: "glft", grid: { gamma: [1, 1] } });
    expect(issuesOf(() => sweepStrategies(other, AS))).toEqual([
      "grid.gamma[1]: repeats grid.gamma[0] (1)",
      'strategy: the sweep is for "glft" but the config\'s strategy is "avellaneda-stoikov"',
    ]);
    const values = Array.from({ length: 101 }, (_, i) => i + 1);
    const huge = readSweepFile({ grid: { gamma: values, k: values, x: [0] } });
    expect(issuesOf(() => sweepStrategies(huge, AS))).toEqual([
      `grid: ${101 * 101} points, more than the ${MAX_POINTS} a sweep may run`,
    ]);
  });

  it("gives every point's strategy entry when the file is sound", () => {
    const { points, strategies } = sweepStrategies(readSweepFile({ grid: { gamma: [0.5, 2] } }), AS);
    expect(points.map((p) => p.point)).toEqual([1, 2]);
    expect(strategies).toEqual([
      { ...AS, params: { ...AS.params, gamma: 0.5 } },
      { ...AS, params: { ...AS.params, gamma: 2 } },
    ]);
  });
});

describe("paramsText", () => {
  it("shows strings bare and other values as JSON", () => {
    expect(paramsText({ gamma: 0.1, margin: "0.02", on: true, list: [1] })).toBe(
      "gamma=0.1 margin=0.02 on=true list=[1]",
    );
  });
});
