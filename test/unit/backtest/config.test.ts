import { describe, expect, it } from "vitest";
import { layerConfigs } from "../../../src/backtest/config-reader.js";
import { BacktestError } from "../../../src/backtest/errors.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { buildMarkets } from "../../../src/backtest/sim/markets.js";
import { resolveEngineOptions } from "../../../src/engine/engine-deps.js";

const BANDS = { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } };

function issues(layers: unknown[]): string[] {
  try {
    parseReplayConfig(layers);
  } catch (err) {
    expect(err).toBeInstanceOf(BacktestError);
    return (err as BacktestError).details.issues as string[];
  }
  return [];
}

describe("replay config", () => {
  it("fills in the backtest defaults", () => {
    const c = parseReplayConfig([{ strategy: BANDS }]);
    expect(c.engine.session).toBe("bt");
    expect(c.tracker).toEqual({ crossed: "flag", stall: { enabled: false } });
    expect(c.latency).toEqual({ feedMs: 0, entryMs: 0, responseMs: 0 });
    expect(c.marketDefaults).toEqual({
      tickMicro: 10_000,
      minSizeMicro: 1_000_000n,
      feeTakerBps: 0,
      closesAtMs: undefined,
    });
    expect(c.wallet).toEqual({ usdcMicro: 100_000_000_000n, sharesMicro: 5_000_000_000n });
    expect(c.report).toEqual({
      sharpeIntervalMs: 60_000,
      markoutsMs: [1_000, 10_000, 60_000],
      dataGapMs: 3_600_000,
    });
    expect(c.tokens).toBeUndefined();
    expect(c.strategy.name).toBe("bands");
  });

  it("layers files: objects merge, the strategy and arrays are replaced whole", () => {
    const merged = layerConfigs([
      { strategy: BANDS, latency: { feedMs: 5 }, report: { markoutsMs: [1, 2] } },
      { strategy: { name: "glft" }, latency: { entryMs: 7 }, report: { markoutsMs: [3] } },
    ]);
    expect(merged).toEqual({
      strategy: { name: "glft" },
      latency: { feedMs: 5, entryMs: 7 },
      report: { markoutsMs: [3] },
    });
  });

  it("lists every problem, with its field, at once", () => {
    const found = issues([
      {
        strategy: { name: "bands", params: { bands: [] } },
        latency: { feedMs: -1, entryMs: 1.5 },
        markets: { tick: "0.7", tokens: [{ tokenId: "x1" }] },
        report: { markoutsMs: [0] },
        extra: 1,
      },
    ]);
    for (const prefix of [
      "strategy.params.bands",
      "latency.feedMs",
      "latency.entryMs",
      "markets.tick",
      "markets.tokens[0].tokenId",
      "markets.tokens[0].conditionId",
      "report.markoutsMs",
      "extra",
    ]) {
      expect(
        found.some((i) => i.startsWith(prefix)),
        `${prefix} in ${found.join("; ")}`,
      ).toBe(true);
    }
    expect(issues([{}])).toEqual(["strategy: is required"]);
  });

  it("refuses a Sharpe interval under 100 ms, whose grid walk over days of data takes minutes", () => {
    expect(issues([{ strategy: BANDS, report: { sharpeIntervalMs: 1 } }])).toEqual([
      "report.sharpeIntervalMs: must be >= 100",
    ]);
    expect(issues([{ strategy: BANDS, report: { sharpeIntervalMs: 100 } }])).toEqual([]);
  });

  it("refuses a tick that does not divide 1 (its grid misses 1 − tick), in a replay and a scenario's market", () => {
    const base = { strategy: { name: "bands", params: { bands: [{ offsetTicks: 2, size: "5" }] } } };
    const offGrid = issues([{ ...base, markets: { tick: "0.013", tokens: [] } }]);
    expect(offGrid.filter((i) => i.startsWith("markets.tick"))).toEqual([
      "markets.tick: must divide 1 (e.g. 0.01, 0.005, 0.001), so the price grid reaches 1 − tick",
    ]);
    for (const ok of ["0.5", "0.25", "0.005", "0.000001"]) {
      expect(
        issues([{ ...base, markets: { tick: ok, tokens: [] } }]).filter((i) => i.startsWith("markets.tick")),
      ).toEqual([]);
    }
  });

  it("names a bad σ setting, and fills the ones left out from the defaults", () => {
    // maxGapMs 0 re-anchored at every update: σ never reported, A–S / GLFT silently never quoting.
    expect(issues([{ strategy: BANDS, engine: { volatility: { maxGapMs: 0 } } }])).toEqual([
      "engine.volatility.maxGapMs: must be a positive finite number",
    ]);
    expect(issues([{ strategy: BANDS, engine: { volatility: { minSamples: 0 } } }])).toEqual([
      "engine.volatility.minSamples: must be an integer ≥ 1",
    ]);
    const partial = parseReplayConfig([{ strategy: BANDS, engine: { volatility: { halfLifeMs: 5_000 } } }]);
    expect(resolveEngineOptions(partial.engine).volatility).toEqual({
      halfLifeMs: 5_000,
      minSamples: 20,
      maxGapMs: 300_000,
    });
  });

  it("takes the drift settlement window (reconcileDriftSettleMs): 30 s by default, 0 allowed, negative refused", () => {
    const unset = parseReplayConfig([{ strategy: BANDS }]);
    expect(resolveEngineOptions(unset.engine).reconcileDriftSettleMs).toBe(30_000);
    const none = parseReplayConfig([{ strategy: BANDS, engine: { reconcileDriftSettleMs: 0 } }]);
    expect(resolveEngineOptions(none.engine).reconcileDriftSettleMs).toBe(0);
    expect(issues([{ strategy: BANDS, engine: { reconcileDriftSettleMs: -1 } }])).toEqual([
      "engine.reconcileDriftSettleMs: must be a number ≥ 0",
    ]);
  });

  it("groups tokens into markets by condition, outcomes ordered by index", () => {
    const c = parseReplayConfig([
      {
        strategy: BANDS,
        markets: {
          tick: "0.001",
          tokens: [
            { tokenId: "12", conditionId: "0xAB", outcomeIndex: 1 },
            { tokenId: "11", conditionId: "0xab", outcomeIndex: 0, minSize: "5" },
            { tokenId: "21", conditionId: "0xcd", outcome: "UP", feeTakerBps: 100 },
          ],
        },
      },
    ]);
    const m = buildMarkets(c.tokens ?? []);
    expect(
      m.specs.map((s) => [s.marketId, s.outcomes.map((o) => `${o.label}:${o.tokenId}`), s.tickSize]),
    ).toEqual([
      ["0xab", ["YES:11", "NO:12"], 1_000n],
      ["0xcd", ["UP:21"], 1_000n],
    ]);
    expect(m.tokens.map((t) => [t.tokenId, t.outcomeIndex, t.minSizeMicro, t.feeTakerBps])).toEqual([
      ["11", 0, 5_000_000n, 0],
      ["12", 1, 1_000_000n, 0],
      ["21", 0, 1_000_000n, 100],
    ]);
  });
});
