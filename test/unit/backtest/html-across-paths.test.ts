import { describe, expect, it } from "vitest";
import { acrossPathsTable } from "../../../src/backtest/report/html/tables.js";
import type { AcrossJson } from "../../../src/backtest/synthetic/across-paths.js";
import type { SyntheticSummary } from "../../../src/backtest/synthetic/run-synthetic.js";

/*
 * The synthetic HTML report's "Across paths" table shows every figure the JSON summary states
 * across paths (its top-level pnl, finalInventory and fills, and each of `acrossPaths`), with how
 * many paths have it: the headline tables below it are one path's (the median PnL's), so the
 * across-path Sharpe or drawdown would otherwise be in the collapsed JSON only.
 */

const a = (paths: number, mean: string | null, std: string | null): AcrossJson => ({ paths, mean, std });

// Only what the table reads; each figure a distinct mean so a row can be told apart.
const SUMMARY = {
  paths: 3,
  pnl: { mean: "1.1", std: "0.1" },
  finalInventory: { mean: "2.2", std: "0.2" },
  fills: { mean: "3.3", std: "0.3" },
  acrossPaths: {
    realised: a(3, "4.4", "0.4"),
    unrealised: a(3, "5.5", "0.5"),
    fees: a(3, "6.6", "0.6"),
    makerVolume: a(3, "7.7", "0.7"),
    takerVolume: a(3, "8.8", "0.8"),
    inventory: { mean: a(3, "9.9", "0.9"), maxAbs: a(3, "10.1", "1.1") },
    maxDrawdown: a(3, "11.1", "1.2"),
    sharpe: a(2, "12.1", "1.3"),
    quoteUptime: a(3, "0.95", "0.01"),
    markouts: [
      {
        horizonMs: 1_000,
        fills: 4,
        unresolved: 1,
        perShare: a(1, "0.001", "0"),
        total: a(3, "0.02", "0.03"),
      },
      { horizonMs: 60_000, fills: 0, unresolved: 5, perShare: a(0, null, null), total: a(3, "0", "0") },
    ],
  },
} as unknown as SyntheticSummary;

/** The table's rows as [label, paths, mean, std] texts. */
function rows(html: string): string[][] {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)]
    .slice(1)
    .map((m) => [...(m[1] as string).matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1] as string));
}

describe("the synthetic report's Across paths table", () => {
  it("lists every across-path figure of the JSON summary, with the number of paths that have it", () => {
    const html = acrossPathsTable(SUMMARY);
    expect(html).toMatch(/<th>Across paths<\/th><th>Paths<\/th><th>Mean<\/th><th>Std\. dev\.<\/th>/);
    expect(rows(html)).toEqual([
      ["PnL total (USDC)", "3", "1.1", "0.1"],
      ["PnL realised (USDC)", "3", "4.4", "0.4"],
      ["PnL unrealised (USDC)", "3", "5.5", "0.5"],
      ["Fees (USDC value)", "3", "6.6", "0.6"],
      ["Fills", "3", "3.3", "0.3"],
      ["Maker volume (shares)", "3", "7.7", "0.7"],
      ["Taker volume (shares)", "3", "8.8", "0.8"],
      ["Final inventory (shares)", "3", "2.2", "0.2"],
      ["Mean inventory (shares)", "3", "9.9", "0.9"],
      ["Max |inventory| (shares)", "3", "10.1", "1.1"],
      ["Max drawdown (USDC)", "3", "11.1", "1.2"],
      ["Sharpe (annualised)", "2", "12.1", "1.3"],
      ["Quote uptime (fraction)", "3", "0.95", "0.01"],
      ["Markout 1 s per share (USDC; 4 fills, 1 unresolved over all paths)", "1", "0.001", "0"],
      ["Markout 1 s total (USDC)", "3", "0.02", "0.03"],
      ["Markout 60 s per share (USDC; 0 fills, 5 unresolved over all paths)", "0", "–", "–"],
      ["Markout 60 s total (USDC)", "3", "0", "0"],
    ]);
  });
});
