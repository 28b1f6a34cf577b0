import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScenario, SCENARIO_DEFAULTS } from "../../../src/backtest/synthetic/scenario.js";
import { packageRoot } from "../../../src/config/paths.js";

const STRATEGY = { name: "avellaneda-stoikov", params: { gamma: 5, k: 100, orderSize: "1", sigma: 0.001 } };

// config/backtest/README.md's scenario table gives each section's defaults the way the replay
// table does. Its `market` row once read `{tick: "0.000001", …}` while parseScenario's default
// tick was 0.01, so a scenario that left market.tick out, trusting the doc, quoted A–S on a 0.01
// grid: as-paper's spread (~0.0064) rounded out to 0.49 / 0.51, a different experiment with no
// warning (review 16). The README now lists the real defaults (test/unit/docs/scenario-defaults).
describe("synthetic scenario defaults", () => {
  it("the default tick is the one the README's scenario table names", () => {
    const readme = readFileSync(join(packageRoot(), "config/backtest/README.md"), "utf8");
    const row = readme.split("\n").find((l) => l.startsWith("| `market` |"));
    const documented = /tick: "([0-9.]+)"/.exec(row ?? "")?.[1];
    expect(documented).toBeDefined();
    const sc = parseScenario([
      {
        process: { s0: "0.5", sigma: 0.001, dtMs: 1_000, horizonMs: 10_000 },
        fills: { A: 1, k: 100 },
        strategy: STRATEGY,
      },
    ]);
    expect(sc.market.tickMicro / 1e6).toBe(Number(documented));
  });

  it("a scenario that leaves every key out takes SCENARIO_DEFAULTS", () => {
    const D = SCENARIO_DEFAULTS;
    const sc = parseScenario([{ process: {}, fills: {}, strategy: STRATEGY }]);
    const micro = (s: string) => BigInt(Math.round(Number(s) * 1e6));
    expect({ seed: sc.seed, paths: sc.paths, startMs: sc.startMs, horizonMs: sc.horizonMs }).toEqual({
      seed: D.seed,
      paths: D.paths,
      startMs: D.startMs,
      horizonMs: D.process.horizonMs,
    });
    expect(sc.process).toMatchObject({
      s0: Number(D.process.s0),
      sigma: D.process.sigma,
      dtMs: D.process.dtMs,
      increments: D.process.increments,
    });
    expect(sc.process.bounds !== undefined).toBe(D.process.bounded);
    expect(sc.fills).toEqual({
      A: D.fills.A,
      k: D.fills.k,
      probability: D.fills.probability,
      sizeMicro: micro(D.fills.size),
    });
    expect(sc.market).toEqual({
      tickMicro: Number(micro(D.market.tick)),
      minSizeMicro: micro(D.market.minSize),
      feeTakerBps: D.market.feeTakerBps,
      closesAtHorizon: D.market.closesAtHorizon,
    });
    expect(sc.bookSizeMicro).toBe(micro(D.book.size));
  });

  it("runs no time-driven requote unless the scenario sets engine.requoteIntervalMs (the paper quotes once per dt)", () => {
    const base = { process: {}, fills: {}, strategy: STRATEGY };
    expect(parseScenario([base]).engine.requoteIntervalMs).toBe(0);
    const on = parseScenario([base, { engine: { requoteIntervalMs: 1_000 } }]);
    expect(on.engine).toMatchObject({ session: "bt", requoteIntervalMs: 1_000 });
  });
});
