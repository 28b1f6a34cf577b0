import { describe, expect, it } from "vitest";
import { parseReplayConfig, type ReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import { configureStrategy } from "../../../strategies/registry.js";
import { skewedMid } from "../../unit/strategies/support/example-strategy.js";
import { importedCapture } from "./support/capture.js";
import { expectOfferedPrices, expectReconciled } from "./support/invariants.js";

/*
 * A strategy that is not in the registry (strategies/README.md "Writing a strategy": the guide's
 * skewed-mid example) backtested on the real Polymarket capture through the importer: a replay
 * config's `strategy` is a ConfiguredStrategy, so configureStrategy plugs it in.
 */

const capture = importedCapture("mm-backtest-custom-");

const ENTRY = { name: "skewed-mid", params: { halfSpread: "0.01", orderSize: "10", skewPerLot: 0.002 } };

/** The replay config with `params` for skewed-mid in place of the registered entry it was parsed with. */
function configFor(params: Record<string, unknown>): ReplayConfig {
  // Any registered entry gets the rest of the config validated; the strategy is then replaced.
  const base = parseReplayConfig([
    { strategy: { name: "bands", params: { bands: [{ margin: "0.01", size: "1" }] } } },
  ]);
  return {
    ...base,
    strategy: configureStrategy(skewedMid, params),
    strategyRaw: { name: "skewed-mid", params },
  };
}

describe("backtest of an unregistered strategy", () => {
  it("replays the capture with skewed-mid: fills, reconciled, named in the summary", async () => {
    const fills: BacktestFill[] = [];
    const r = await runBacktest({
      config: configFor(ENTRY.params),
      data: capture(),
      onFill: (f) => fills.push(f),
    });
    expect(r.summary.strategy).toEqual(ENTRY);
    expect(r.frames).toBe(3_830);
    expect(fills.length).toBeGreaterThan(0);
    // One lot a quote: every fill is at most 10 shares.
    expect(fills.every((f) => f.quantity <= 10_000_000n)).toBe(true);
    expectReconciled(r, fills);
    expect(await expectOfferedPrices([capture()], fills)).toBe(fills.length);
  }, 120_000);

  it("the skew does its job: a stronger skew holds less inventory on average", async () => {
    const meanInventory = async (skewPerLot: number) => {
      const r = await runBacktest({ config: configFor({ ...ENTRY.params, skewPerLot }), data: capture() });
      return Number(r.summary.tokens[0]?.inventory.mean);
    };
    // Measured: 12.59 shares without skew, 2.65 with 0.01 a lot (both 10-share lots, 0.01 half-spread).
    expect(await meanInventory(0.01)).toBeLessThan(await meanInventory(0));
  }, 120_000);
});
