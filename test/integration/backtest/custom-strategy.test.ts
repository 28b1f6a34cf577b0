import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPolymarketPriceChanges } from "../../../src/backtest/import/polymarket-price-changes.js";
import { parseReplayConfig, type ReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { runBacktest } from "../../../src/backtest/replay/run-backtest.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import { packageRoot } from "../../../src/config/paths.js";
import { configureStrategy } from "../../../strategies/registry.js";
import { skewedMid } from "../../unit/strategies/support/example-strategy.js";
import { expectOfferedPrices, expectReconciled } from "./support/invariants.js";

/*
 * A strategy that is not in the registry (strategies/README.md "Writing a strategy": the guide's
 * skewed-mid example) backtested on the real Polymarket capture through the importer: a replay
 * config's `strategy` is a ConfiguredStrategy, so configureStrategy plugs it in.
 */

const CSV = join(
  packageRoot(),
  "../shared/data/polymarket-price-changes/price_change_messages_202501302221.csv",
);

let dir: string;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mm-backtest-custom-"));
  data = join(dir, "pm.jsonl.gz");
  await importPolymarketPriceChanges({ input: CSV, output: data });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
    const r = await runBacktest({ config: configFor(ENTRY.params), data, onFill: (f) => fills.push(f) });
    expect(r.summary.strategy).toEqual(ENTRY);
    expect(r.frames).toBe(3_830);
    expect(fills.length).toBeGreaterThan(0);
    // One lot a quote: every fill is at most 10 shares.
    expect(fills.every((f) => f.quantity <= 10_000_000n)).toBe(true);
    expectReconciled(r, fills);
    expect(await expectOfferedPrices([data], fills)).toBe(fills.length);
  }, 120_000);

  it("the skew does its job: a stronger skew holds less inventory on average", async () => {
    const meanInventory = async (skewPerLot: number) => {
      const r = await runBacktest({ config: configFor({ ...ENTRY.params, skewPerLot }), data });
      return Number(r.summary.tokens[0]?.inventory.mean);
    };
    // Measured: 12.59 shares without skew, 2.65 with 0.01 a lot (both 10-share lots, 0.01 half-spread).
    expect(await meanInventory(0.01)).toBeLessThan(await meanInventory(0));
  }, 120_000);
});
