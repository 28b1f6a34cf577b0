import { describe, expect, it } from "vitest";
import { parseMetric } from "../../../../src/backtest/sweep/metric.js";
import { type PointOutcome, rankPoints } from "../../../../src/backtest/sweep/rank.js";
import { figure, renderTable } from "../../../../src/backtest/sweep/table.js";
import { Dec } from "../../../../src/core/decimal.js";

function synthetic(mean: string, std: string, fills: string, dd: [string, string]) {
  return {
    pnl: { mean, std },
    finalInventory: { mean: "0.5", std: "1.25" },
    fills: { mean: fills, std: "0" },
    perPath: [
      { maxDrawdown: dd[0], quoteUptime: 1 },
      { maxDrawdown: dd[1], quoteUptime: 1 },
    ],
  };
}

const outcomes: PointOutcome[] = [
  {
    point: 1,
    params: { gamma: 0.1, k: "1.5" },
    status: "ok",
    summary: synthetic("1.2", "0.4", "10", ["0.1", "0.3"]),
  },
  {
    point: 2,
    params: { gamma: 0.1, k: "3" },
    status: "ok",
    summary: synthetic("-0.123456789", "0.2", "12.5", ["1", "1"]),
  },
  {
    point: 3,
    params: { gamma: 10, k: "1.5" },
    status: "failed",
    error: { code: "worker_crashed", message: "worker exited with code 7" },
  },
  { point: 4, params: { gamma: 10, k: "3" }, status: "ok", summary: synthetic("2", "0", "1", ["0", "0"]) },
];

describe("renderTable", () => {
  it("lays out the ranking, parameters then figures, and the failed points", () => {
    const metric = parseMetric("pnl", "synthetic");
    const text = renderTable({
      kind: "synthetic",
      keys: ["gamma", "k"],
      metric,
      ranked: rankPoints(outcomes, metric),
      outcomes,
    });
    expect(text).toBe(
      [
        "ranked by pnl (pnl.mean, largest first): 4 points, 1 failed",
        "rank  point  gamma  k          pnl  pnlStd     sharpe  inventory  inventoryStd  fills  maxDrawdown",
        "   1      4  10     3            2       0          -        0.5          1.25      1            0",
        "   2      1  0.1    1.5        1.2     0.4          3        0.5          1.25     10          0.2",
        "   3      2  0.1    3    -0.123457     0.2  -0.617284        0.5          1.25   12.5            1",
        "failed:",
        "  point 3 gamma=10 k=1.5: worker_crashed: worker exited with code 7",
        "",
      ].join("\n"),
    );
  });

  it("puts the ranking metric first among the figures, even a path", () => {
    const metric = parseMetric("perPath[1].maxDrawdown:asc", "synthetic");
    const ok = outcomes.filter((o) => o.status === "ok");
    const text = renderTable({
      kind: "synthetic",
      keys: ["k"],
      metric,
      ranked: rankPoints(ok, metric),
      outcomes: ok,
    });
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "ranked by perPath[1].maxDrawdown (perPath[1].maxDrawdown, smallest first): 3 points, 0 failed",
    );
    expect(lines[1]).toMatch(/^rank {2}point {2}k {4}perPath\[1\]\.maxDrawdown {8}pnl {2}/);
    expect(lines.slice(2, 5).map((l) => l.trim().split(/\s+/).slice(1, 4))).toEqual([
      ["4", "3", "0"],
      ["1", "1.5", "0.3"],
      ["2", "3", "1"],
    ]);
    expect(text).not.toContain("failed:");
  });

  it("shows figures to 6 decimals, half-even, and - when absent", () => {
    expect(figure(new Dec("0.0000005"))).toBe("0");
    expect(figure(new Dec("0.0000015"))).toBe("0.000002");
    expect(figure(new Dec("-12.5"))).toBe("-12.5");
    expect(figure(undefined)).toBe("-");
  });
});
