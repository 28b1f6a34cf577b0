import { describe, expect, it } from "vitest";
import {
  PathProblem,
  parsePath,
  pathText,
  valueAt,
  withValueAt,
} from "../../../../src/backtest/sweep/json-path.js";

describe("json paths", () => {
  it("parses keys and indices, and prints them back", () => {
    expect(parsePath("gamma")).toEqual(["gamma"]);
    expect(parsePath("bands[10].margin")).toEqual(["bands", 10, "margin"]);
    expect(parsePath("m[0][1].x_y.$z")).toEqual(["m", 0, 1, "x_y", "$z"]);
    expect(pathText(["m", 0, 1, "x_y"])).toBe("m[0][1].x_y");
    const proto = ["__proto__", "a.constructor", "prototype[0]"];
    for (const bad of ["", ".a", "a.", "a..b", "[0]", "a[]", "a[-1]", "a b", "1a", "a[0]b", ...proto]) {
      expect(parsePath(bad), bad).toBeUndefined();
    }
  });

  it("reads values, undefined when a step is missing", () => {
    const doc = { a: [{ b: 1 }, { b: null }], c: "x" };
    expect(valueAt(doc, ["a", 0, "b"])).toBe(1);
    expect(valueAt(doc, ["a", 1, "b"])).toBeNull();
    expect(valueAt(doc, ["a", 2, "b"])).toBeUndefined();
    expect(valueAt(doc, ["c", "d"])).toBeUndefined();
    expect(valueAt(doc, ["a", "b"])).toBeUndefined();
    expect(valueAt(doc, ["toString"])).toBeUndefined();
  });

  it("writes into a copy and leaves the original alone", () => {
    const doc = { bands: [{ margin: "0.01" }] };
    const out = withValueAt(doc, ["bands", 0, "margin"], "0.02");
    expect(out).toEqual({ bands: [{ margin: "0.02" }] });
    expect(doc.bands[0]?.margin).toBe("0.01");
    expect(withValueAt(doc, ["gamma"], 3)).toEqual({ ...doc, gamma: 3 });
  });

  it("describes a path that does not fit", () => {
    const doc = { bands: [{ margin: "0.01" }], n: 1 };
    const msg = (steps: (string | number)[]) => (withValueAt(doc, steps, 0, "p") as PathProblem).message;
    expect(msg(["bands", 1, "margin"])).toBe("p.bands has no element [1] (length 1)");
    expect(msg(["n", "x"])).toBe("p.n is not an object");
    expect(msg(["n", 0])).toBe("p.n is not an array");
    expect(msg(["q", "x"])).toBe("p.q is absent");
    expect(withValueAt([1], [0, "a"], 0, "p")).toEqual(new PathProblem("p[0] is not an object"));
  });
});
