import { describe, expect, it } from "vitest";
import type { BacktestError } from "../../../src/backtest/errors.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";

const STRATEGY = { name: "avellaneda-stoikov", params: { gamma: 5, k: 100, orderSize: "1", sigma: 0.001 } };

/** The scenario's issues (empty when it is valid). */
function issuesOf(process: Record<string, unknown>, tick: string): string[] {
  try {
    parseScenario([
      { process: { sigma: 0.001, ...process }, fills: {}, market: { tick }, strategy: STRATEGY },
    ]);
  } catch (e) {
    return (e as BacktestError).details.issues as string[];
  }
  return [];
}

// A bounded mid is reflected inside [tick, 1 − tick] (at a 1-micro tick, [0.000002, 0.999998]),
// but s0 outside that range was accepted (review 16): s0 = 0.005 at tick 0.01 showed a first frame
// below the band and then jumped in by reflection; s0 = 0.000001 at a 1-micro tick gave a locked
// first book. Such an s0 is refused, naming the field and the range.
describe("synthetic scenario: s0 of a bounded mid", () => {
  it("is refused outside the range the mid is kept in, naming process.s0 and the range", () => {
    expect(issuesOf({ s0: "0.005" }, "0.01")).toEqual([
      "process.s0: must lie in [0.01, 0.99], the range a bounded mid is kept in at tick 0.01 (or set process.bounded to false)",
    ]);
    expect(issuesOf({ s0: "0.995" }, "0.01")).toHaveLength(1);
    expect(issuesOf({ s0: "0.000001" }, "0.000001")).toEqual([
      "process.s0: must lie in [0.000002, 0.999998], the range a bounded mid is kept in at tick 0.000001 (or set process.bounded to false)",
    ]);
    expect(issuesOf({ s0: "0.999999" }, "0.000001")).toHaveLength(1);
  });

  it("is accepted at the range's ends, and anywhere in (0, 1) when unbounded", () => {
    expect(issuesOf({ s0: "0.01" }, "0.01")).toEqual([]);
    expect(issuesOf({ s0: "0.99" }, "0.01")).toEqual([]);
    expect(issuesOf({ s0: "0.000002" }, "0.000001")).toEqual([]);
    expect(issuesOf({ s0: "0.999998" }, "0.000001")).toEqual([]);
    expect(issuesOf({ s0: "0.005", bounded: false }, "0.01")).toEqual([]);
    expect(issuesOf({ s0: "1", bounded: false }, "0.01")).toEqual(["process.s0: must lie in (0, 1)"]);
  });
});
