import { describe, expect, it } from "vitest";
import { ParamReader } from "../../../strategies/params.js";
import { issuesOf } from "./helpers.js";

function read(raw: unknown): number {
  const r = new ParamReader(raw);
  const v = r.number("gamma", { gt: 0 });
  r.finish("test");
  return v;
}

describe("ParamReader.number", () => {
  // Prices and sizes are decimal strings, coefficients JSON numbers: "0.05" for a coefficient is
  // the natural slip, and "must be a finite number" does not say what is wrong with it.
  it("says a quoted number must lose its quotes", () => {
    expect(issuesOf(() => read({ gamma: "0.05" }))).toEqual([
      'gamma: must be a JSON number: 0.05, not "0.05"',
    ]);
    expect(issuesOf(() => read({ gamma: " 1e3 " }))).toEqual([
      'gamma: must be a JSON number: 1e3, not " 1e3 "',
    ]);
  });

  it("keeps the plain message for anything else", () => {
    expect(issuesOf(() => read({ gamma: "x" }))).toEqual(["gamma: must be a finite number"]);
    expect(issuesOf(() => read({ gamma: "" }))).toEqual(["gamma: must be a finite number"]);
    expect(issuesOf(() => read({ gamma: "Infinity" }))).toEqual(["gamma: must be a finite number"]);
    expect(issuesOf(() => read({ gamma: true }))).toEqual(["gamma: must be a finite number"]);
    expect(issuesOf(() => read({}))).toEqual(["gamma: required (a number)"]);
    expect(read({ gamma: 0.05 })).toBe(0.05);
  });
});
