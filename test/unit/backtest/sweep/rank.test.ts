import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../../src/backtest/errors.js";
import { NAMED_METRICS, numeric, parseMetric } from "../../../../src/backtest/sweep/metric.js";
import { type PointOutcome, rankPoints } from "../../../../src/backtest/sweep/rank.js";

/** The parts of a replay summary the named metrics read. */
function replay(total: string, drawdown: string, sharpe: number | null, count: number) {
  return {
    pnl: { total, realised: "1", unrealised: "0" },
    fees: { value: "0.5" },
    fills: { count, maker: { volume: "10" }, taker: { volume: "0" } },
    drawdown: { max: drawdown },
    sharpe: { annualised: sharpe },
    quoteUptime: 0.9,
    markouts: [{ horizonMs: 1000, perShare: "0.001" }],
  };
}

const ok = (point: number, summary: unknown): PointOutcome => ({
  point,
  params: { gamma: point },
  status: "ok",
  summary,
});

describe("parseMetric", () => {
  it("resolves named metrics per kind with their natural order", () => {
    const m = (t: string, k: "replay" | "synthetic" = "replay") => {
      const x = parseMetric(t, k);
      return [x.name, x.field, x.order];
    };
    expect(m("pnl")).toEqual(["pnl", "pnl.total", "desc"]);
    expect(m("pnl", "synthetic")).toEqual(["pnl", "pnl.mean", "desc"]);
    expect(m("maxDrawdown")).toEqual(["maxDrawdown", "drawdown.max", "asc"]);
    expect(m("maxDrawdown", "synthetic")).toEqual(["maxDrawdown", "mean of perPath[].maxDrawdown", "asc"]);
    expect(m("fees")).toEqual(["fees", "fees.value", "asc"]);
    expect(m("sharpe", "synthetic")).toEqual(["sharpe", "pnl.mean / pnl.std", "desc"]);
    expect(m("maxDrawdown:desc")).toEqual(["maxDrawdown", "drawdown.max", "desc"]);
  });

  it("takes any path into the summary, largest first unless told", () => {
    const x = parseMetric("markouts[0].perShare:asc", "replay");
    expect([x.name, x.field, x.order, x.path]).toEqual([
      "markouts[0].perShare",
      "markouts[0].perShare",
      "asc",
      ["markouts", 0, "perShare"],
    ]);
    expect(x.read(replay("0", "0", 0, 0))?.toFixed()).toBe("0.001");
    expect(parseMetric("fills.count", "replay").order).toBe("desc");
  });

  it("refuses what is neither, listing the named metrics", () => {
    expect(() => parseMetric("p&l", "replay")).toThrow(BacktestError);
    expect(() => parseMetric("p&l", "synthetic")).toThrow(
      /neither a metric \(pnl, pnlStd, sharpe, inventory, inventoryStd, fills, maxDrawdown, uptime\) nor a path/,
    );
  });

  it("reads every named replay metric from a replay summary", () => {
    const s = replay("12.5", "3.25", 1.5, 7);
    const read = Object.fromEntries(
      Object.entries(NAMED_METRICS.replay).map(([k, m]) => [k, m.read(s)?.toFixed()]),
    );
    expect(read).toEqual({
      pnl: "12.5",
      realised: "1",
      unrealised: "0",
      sharpe: "1.5",
      maxDrawdown: "3.25",
      fills: "7",
      makerVolume: "10",
      takerVolume: "0",
      fees: "0.5",
      uptime: "0.9",
    });
  });

  it("derives the synthetic aggregates exactly", () => {
    const s = {
      pnl: { mean: "0.3", std: "0.1" },
      finalInventory: { mean: "-1", std: "2" },
      fills: { mean: "4.5" },
      perPath: [
        { maxDrawdown: "0.1", quoteUptime: 1 },
        { maxDrawdown: "0.2", quoteUptime: 0.5 },
      ],
    };
    const read = (k: string) => NAMED_METRICS.synthetic[k]?.read(s)?.toFixed();
    expect(read("sharpe")).toBe("3");
    expect(read("maxDrawdown")).toBe("0.15");
    expect(read("uptime")).toBe("0.75");
    expect(read("inventory")).toBe("1"); // distance from flat: |−1|
    // Ranked closest to flat, whichever side: a short mean used to rank first.
    const inv = (point: number, mean: string) => ok(point, { finalInventory: { mean, std: "0" } });
    const ranked = rankPoints(
      [inv(1, "-3"), inv(2, "0.5"), inv(3, "2"), inv(4, "-0.25")],
      parseMetric("inventory", "synthetic"),
    );
    expect(ranked.map((r) => r.point)).toEqual([4, 2, 3, 1]);
    expect(NAMED_METRICS.synthetic.sharpe?.read({ pnl: { mean: "1", std: "0" } })).toBeUndefined();
  });
});

describe("path metrics and numeric", () => {
  it("are refused up front where the summary holds no number (no longer at the first result)", () => {
    expect(
      parseMetric("fills.count", "replay")
        .read(replay("1", "0", null, 2))
        ?.toFixed(),
    ).toBe("2");
    expect(parseMetric("sharpe.annualised", "replay").read(replay("1", "0", null, 2))).toBeUndefined();
    expect(() => parseMetric("fills.maker", "replay")).toThrow(
      /rank-by "fills.maker": .*fills\.maker is not a number but a part of the summary: pick a field \(fills\.maker holds count, volume, notional\)$/,
    );
    // Ids are decimal strings too, but no metric: they name what is measured.
    expect(() => parseMetric("tokens[0].tokenId", "replay")).toThrow(/tokens\[0\]\.tokenId is text/);
  });

  it("reads numbers and decimal strings only", () => {
    expect(numeric("-0.000000000001")?.toFixed()).toBe("-0.000000000001");
    expect(numeric(1e-7)?.toFixed()).toBe("0.0000001");
    expect(numeric("1e5")).toBeUndefined();
    expect(numeric(Number.NaN)).toBeUndefined();
    expect(numeric("abc")).toBeUndefined();
  });
});

describe("rankPoints", () => {
  const outcomes: PointOutcome[] = [
    ok(1, replay("5", "2", 1, 3)),
    ok(2, replay("7.000000000001", "4", null, 3)),
    { point: 3, params: { gamma: 3 }, status: "failed", error: { code: "x", message: "boom" } },
    ok(4, replay("5", "1", 2, 1)),
    ok(5, replay("-3", "2", 0.5, 3)),
  ];

  it("ranks by the metric's order, exact decimals, failed points left out", () => {
    const r = rankPoints(outcomes, parseMetric("pnl", "replay"));
    expect(r.map((x) => [x.rank, x.point, x.value?.toFixed()])).toEqual([
      [1, 2, "7.000000000001"],
      [2, 1, "5"],
      [2, 4, "5"],
      [4, 5, "-3"],
    ]);
    const asc = rankPoints(outcomes, parseMetric("maxDrawdown", "replay"));
    expect(asc.map((x) => x.point)).toEqual([4, 1, 5, 2]);
  });

  it("breaks ties by grid order and puts missing values last", () => {
    expect(rankPoints(outcomes, parseMetric("fills", "replay")).map((x) => x.point)).toEqual([1, 2, 5, 4]);
    const sharpe = rankPoints(outcomes, parseMetric("sharpe", "replay"));
    expect(sharpe.map((x) => [x.point, x.value?.toFixed()])).toEqual([
      [4, "2"],
      [1, "1"],
      [5, "0.5"],
      [2, undefined],
    ]);
    const reversed = rankPoints([...outcomes].reverse(), parseMetric("fills", "replay"));
    expect(reversed.map((x) => x.point)).toEqual([1, 2, 5, 4]);
  });

  it("gives equal values one rank, the next value the place after them, points without a value one rank", () => {
    expect(rankPoints(outcomes, parseMetric("fills", "replay")).map((x) => [x.rank, x.point])).toEqual([
      [1, 1],
      [1, 2],
      [1, 5],
      [4, 4],
    ]);
    const noValue: PointOutcome[] = [ok(1, replay("1", "1", null, 1)), ok(2, replay("1", "1", null, 1))];
    expect(rankPoints(noValue, parseMetric("sharpe", "replay")).map((x) => x.rank)).toEqual([1, 1]);
  });
});
