import { describe, expect, it } from "vitest";
import { parseMetric } from "../../../../src/backtest/sweep/metric.js";

/*
 * Review (s19, btdocs): README's ranking table names metrics that exist for one kind of sweep only
 * (`fees`, `realised`, `makerVolume`… replay; `pnlStd`, `inventory`, `inventoryStd` synthetic, "—"
 * in the other column). Asked of the other kind, parseMetric() takes the name for a path into the
 * summary ("pnlStd"), so the sweep starts, runs its first point(s) — an hour each on a month of data
 * — and only then stops (exit 2) with "rank-by \"pnlStd\": not a numeric field of the summary" and a
 * list of ~60 fields, which does not say the metric is synthetic-only. The kind is known before any
 * point runs: refuse up front (rank_by_invalid) and say which kind the metric belongs to.
 */

describe("--rank-by a metric of the other kind of sweep", () => {
  it("pnlStd on a replay sweep is refused before any point runs, naming it a synthetic metric", () => {
    expect(() => parseMetric("pnlStd", "replay")).toThrow(/synthetic/);
  });

  it("fees on a synthetic sweep is refused before any point runs, naming it a replay metric", () => {
    expect(() => parseMetric("fees", "synthetic")).toThrow(/replay/);
  });

  it("inventory:asc on a replay sweep likewise (the suffix does not make it a path)", () => {
    expect(() => parseMetric("inventory:asc", "replay")).toThrow(/synthetic/);
  });
});
