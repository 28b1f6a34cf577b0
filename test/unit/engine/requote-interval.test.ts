import { describe, expect, it } from "vitest";
import { BacktestError } from "../../../src/backtest/errors.js";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";
import { loadConfig } from "../../../src/config/load.js";
import { resolveEngineOptions } from "../../../src/engine/engine-deps.js";
import { requoteIntervalProblem } from "../../../src/engine/requote-timer.js";
import { configError } from "../config/support.js";

/*
 * engine.requoteIntervalMs has one rule, requoteIntervalProblem: 0 (off) or 100 ms to an hour.
 * The daemon's config held it to that while a backtest config or scenario took 1 ms (the engine's
 * options checked only ≥ 1): a strategy tuned in a backtest at a period the daemon then refused.
 */

const BANDS = { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } };
const AS = { name: "avellaneda-stoikov", params: { gamma: 5, k: 100, orderSize: "1", sigma: 0.001 } };
const SCENARIO = { process: { dtMs: 1_000, horizonMs: 10_000 }, fills: {}, strategy: AS };
const SHORT = "must be 0 or ≥ 100, got 1: 0 turns it off; a shorter period runs";

function backtestIssues(parse: () => unknown): string[] {
  try {
    parse();
  } catch (err) {
    if (!(err instanceof BacktestError)) throw err;
    return err.details.issues as string[];
  }
  return [];
}

describe("requoteIntervalProblem: the one rule for engine.requoteIntervalMs", () => {
  it("takes 0 (off) and integers from 100 ms to an hour", () => {
    for (const ok of [0, 100, 1_000, 3_600_000])
      expect(requoteIntervalProblem(ok), String(ok)).toBeUndefined();
  });

  it("refuses a period under 100 ms, over an hour, a fraction, a negative or a non-number, saying why", () => {
    expect(requoteIntervalProblem(1)).toMatch(new RegExp(`^${SHORT}`));
    expect(requoteIntervalProblem(99)).toMatch(/^must be 0 or ≥ 100, got 99/);
    expect(requoteIntervalProblem(-1)).toMatch(/^must be 0 or ≥ 100, got -1/);
    expect(requoteIntervalProblem(3_600_001)).toBe("must be ≤ 3600000 (an hour), got 3600001");
    expect(requoteIntervalProblem(150.5)).toBe("must be an integer (ms), got 150.5");
    expect(requoteIntervalProblem(Number.POSITIVE_INFINITY)).toBe("must be an integer (ms), got Infinity");
    expect(requoteIntervalProblem("1000")).toBe("must be an integer (ms), got a string");
  });

  it("is what the engine's options are checked against", () => {
    expect(resolveEngineOptions({ session: "bt", requoteIntervalMs: 100 }).requoteIntervalMs).toBe(100);
    expect(() => resolveEngineOptions({ session: "bt", requoteIntervalMs: 1 })).toThrow(
      `requoteIntervalMs: ${requoteIntervalProblem(1)}`,
    );
  });
});

describe("engine.requoteIntervalMs: the daemon and the backtests refuse the same values, naming the field", () => {
  it("the daemon's config", () => {
    const e = configError(() => loadConfig({ env: { MM_ENGINE_REQUOTE_INTERVAL_MS: "1" } }));
    expect(e.lines()).toEqual([
      `engine.requoteIntervalMs: ${requoteIntervalProblem(1)} (from env MM_ENGINE_REQUOTE_INTERVAL_MS)`,
    ]);
  });

  it("a replay config", () => {
    for (const bad of [1, 99, 3_600_001, 1.5]) {
      expect(
        backtestIssues(() => parseReplayConfig([{ strategy: BANDS, engine: { requoteIntervalMs: bad } }])),
      ).toEqual([`engine.requoteIntervalMs: ${requoteIntervalProblem(bad)}`]);
    }
    const ok = parseReplayConfig([{ strategy: BANDS, engine: { requoteIntervalMs: 100 } }]);
    expect(ok.engine.requoteIntervalMs).toBe(100);
  });

  it("a synthetic scenario (its default, 0, stays off)", () => {
    expect(backtestIssues(() => parseScenario([SCENARIO, { engine: { requoteIntervalMs: 1 } }]))).toEqual([
      `engine.requoteIntervalMs: ${requoteIntervalProblem(1)}`,
    ]);
    expect(parseScenario([SCENARIO]).engine.requoteIntervalMs).toBe(0);
  });
});
