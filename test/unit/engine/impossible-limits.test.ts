import { describe, expect, it } from "vitest";
import type { TokenMarket } from "../../../src/core/trading.js";
import { impossibleLimits } from "../../../src/engine/impossible-limits.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import { Harness } from "./support/harness.js";

function market(marketId: string, tokenId: string, minSize: bigint, tick = 10_000): TokenMarket {
  return {
    marketId,
    conditionId: `0x${marketId}`,
    tokenId,
    outcome: "YES",
    outcomeIndex: 0,
    tickMicro: tick,
    minSizeMicro: minSize,
    feeTakerBps: 0,
    negRisk: false,
    closesAtMs: undefined,
    status: "OPEN",
  };
}

describe("impossibleLimits: risk settings no quote can pass on a market", () => {
  const markets = [
    market("a", "a1", 1_000_000n),
    market("a", "a2", 1_000_000n),
    market("b", "b1", 500_000_000n),
  ];

  it("finds nothing with the defaults", () => {
    expect(impossibleLimits(parseRiskConfig({}), markets.slice(0, 2))).toEqual([]);
  });

  it("names a max size below the minimum once, with each market it blocks once", () => {
    const found = impossibleLimits(parseRiskConfig({ order: { maxSize: "0.5" } }), markets);
    expect(found).toEqual([
      { setting: "risk.order.maxSize", value: "0.5", needs: "500", markets: ["a", "b"] },
    ]);
    // Between the two minimums: only the market with the large minimum.
    expect(impossibleLimits(parseRiskConfig({}), markets).map((f) => [f.setting, f.markets])).toEqual([
      ["risk.order.maxSize", ["b"]],
    ]);
  });

  it("names a max notional below a minimum-size order at one tick, and hard caps below the minimum", () => {
    const risk = parseRiskConfig({
      order: { maxNotional: "0.005" }, // a 1-share order at 0.01 needs 0.01 USDC
      inventory: { perMarket: { soft: "0.5", hard: "0.5" }, total: { soft: "0.9", hard: "0.9" } },
    });
    expect(impossibleLimits(risk, markets.slice(0, 2))).toEqual([
      { setting: "risk.order.maxNotional", value: "0.005", needs: "0.01", markets: ["a"] },
      { setting: "risk.inventory.perMarket.hard", value: "0.5", needs: "1", markets: ["a"] },
      { setting: "risk.inventory.total.hard", value: "0.9", needs: "1", markets: ["a"] },
    ]);
    // Exactly at the need, quoting is possible.
    const edge = parseRiskConfig({
      order: { maxNotional: "0.01", maxSize: "1" },
      inventory: { perMarket: { soft: "1", hard: "1" }, total: { soft: "1", hard: "1" } },
    });
    expect(impossibleLimits(edge, markets.slice(0, 2))).toEqual([]);
  });

  it("the engine logs one warn line per such setting at start", async () => {
    const h = new Harness({ markets: 2, risk: { order: { maxSize: "0.5" } } });
    await h.engine.start();
    await h.run();
    const warns = h.logs.records().filter((r) => Number(r.level) === 40 && r.setting !== undefined);
    expect(warns.map((r) => [r.setting, r.value, r.needs, r.markets])).toEqual([
      ["risk.order.maxSize", "0.5", "1", ["m1", "m2"]],
    ]);
  });
});
