import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../src/backtest/errors.js";
import { DataGaps, LONGEST_GAPS } from "../../../src/backtest/replay/data-gaps.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";

/*
 * The replay summary's `data.gaps`: every silence of the threshold or more is counted and summed,
 * and only the few longest are kept (memory flat however many), longest first, the earlier of two
 * equal ones first — the same data always gives the same list. The threshold is the replay
 * config's `report.dataGapMs`.
 */

const HOUR = 3_600_000;
const BANDS = { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } };

function issues(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BacktestError);
    return (err as BacktestError).details.issues as string[];
  }
  return [];
}

describe("DataGaps", () => {
  it("counts and sums every gap, keeps the longest few, longest first and ties in time order", () => {
    const g = new DataGaps(HOUR);
    const lengths = [2, 5, 3, 5, 1, 7, 2, 4, 5]; // hours, in time order
    let t = 0;
    for (const h of lengths) {
      g.add(t, t + h * HOUR);
      t += h * HOUR + 60_000; // a minute of frames between the gaps
    }
    const s = g.summary();
    expect(s.thresholdMs).toBe(HOUR);
    expect(s.count).toBe(lengths.length);
    expect(s.totalMs).toBe(34 * HOUR);
    expect(s.longest).toHaveLength(LONGEST_GAPS);
    expect(s.longest.map((x) => x.ms / HOUR)).toEqual([7, 5, 5, 5, 4]);
    // The three 5 h gaps in the order they came: the 2nd, 4th and 9th of the data.
    const starts = s.longest.slice(1, 4).map((x) => Date.parse(x.from));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(s.longest[0]).toEqual({
      from: new Date(16 * HOUR + 5 * 60_000).toISOString(),
      to: new Date(23 * HOUR + 5 * 60_000).toISOString(),
      ms: 7 * HOUR,
    });
  });

  it("reports none for data without a gap", () => {
    expect(new DataGaps(HOUR).summary()).toEqual({ thresholdMs: HOUR, count: 0, totalMs: 0, longest: [] });
  });
});

describe("report.dataGapMs", () => {
  it("defaults to an hour in a replay config and takes a whole number of ms up to a day", () => {
    expect(parseReplayConfig([{ strategy: BANDS }]).report.dataGapMs).toBe(HOUR);
    expect(parseReplayConfig([{ strategy: BANDS, report: { dataGapMs: 60_000 } }]).report.dataGapMs).toBe(
      60_000,
    );
  });

  it("names the field when it is not a positive whole number of ms up to a day", () => {
    const bad = (dataGapMs: unknown) =>
      issues(() => parseReplayConfig([{ strategy: BANDS, report: { dataGapMs } }]));
    expect(bad(0)).toEqual(["report.dataGapMs: must be > 0"]);
    expect(bad(1.5)).toEqual(["report.dataGapMs: must be an integer"]);
    expect(bad("1h")).toEqual(["report.dataGapMs: must be a finite number"]);
    expect(bad(86_400_001)).toEqual(["report.dataGapMs: must be <= 86400000"]);
  });

  it("is a replay setting: a synthetic scenario has no recorded data and refuses it", () => {
    const found = issues(() =>
      parseScenario([
        {
          process: { s0: "0.5", sigma: 0.002, dtMs: 1_000, horizonMs: 20_000 },
          fills: { A: 0.5, k: 200 },
          strategy: BANDS,
          report: { dataGapMs: 60_000 },
        },
      ]),
    );
    expect(found).toContain("report.dataGapMs: unknown setting");
  });
});
