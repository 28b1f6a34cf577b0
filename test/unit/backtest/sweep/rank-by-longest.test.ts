import { describe, expect, it } from "vitest";
import { LONGEST_GAPS } from "../../../../src/backtest/replay/data-gaps.js";
import { parseMetric, type SummaryContext } from "../../../../src/backtest/sweep/metric.js";

/*
 * `data.gaps.longest` and `data.printsMissed.longest` hold at most LONGEST_GAPS (5) entries
 * (DataGaps / PrintsMissed keep the longest few). An index past the cap is refused before any point
 * runs (review r20: it was accepted, every point ran, and the sweep only warned that no point held
 * a number); one below it may still be absent in a run with fewer gaps, and ranks last.
 */

const ctx: SummaryContext = {
  strategies: [{ name: "bands", params: { bands: [{ margin: "0.01", size: "10" }] } }],
  horizons: 3,
  latency: { feedMs: 50, entryMs: 20, responseMs: 20 },
  queueModel: {},
  tokens: undefined,
};

const refused = (text: string): string | undefined => {
  try {
    parseMetric(text, "replay", ctx);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe("rank-by into a capped 'longest' list", () => {
  it("accepts an index the summary can hold", () => {
    expect(refused(`data.gaps.longest[${LONGEST_GAPS - 1}].ms`)).toBeUndefined();
    expect(refused(`data.printsMissed.longest[${LONGEST_GAPS - 1}].ms`)).toBeUndefined();
  });

  it("refuses, before any point runs, an index past the cap no summary can reach", () => {
    expect(refused(`data.gaps.longest[${LONGEST_GAPS}].ms`)).toMatch(/data\.gaps\.longest.*\b5\b/);
    expect(refused(`data.printsMissed.longest[${LONGEST_GAPS}].ms`)).toMatch(
      /data\.printsMissed\.longest.*\b5\b/,
    );
  });
});
