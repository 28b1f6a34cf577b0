import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../../src/backtest/synthetic/scenario.js";
import { packageRoot } from "../../../src/config/paths.js";

// config/backtest/README.md's scenario table gives each section's defaults the way the replay
// table does (`markets: {tick: "0.01", minSize: "1", …}` are the replay's defaults; `process:
// {s0: "0.5", …, bounded: true}` are the scenario's): its `market` row reads `{tick: "0.000001", …}`.
// parseScenario's default tick is 0.01 (tick(r, m, "market", 10_000)), so a scenario that leaves
// market.tick out, trusting the doc, quotes A–S on a 0.01 grid: as-paper's spread (~0.0064) is
// rounded out to 0.49 / 0.51, a different experiment with no warning.
describe("synthetic scenario: market.tick default vs config/backtest/README.md", () => {
  it("the default tick is the one the README's scenario table names", () => {
    const readme = readFileSync(join(packageRoot(), "config/backtest/README.md"), "utf8");
    const row = readme.split("\n").find((l) => l.startsWith("| `market` |"));
    const documented = /tick: "([0-9.]+)"/.exec(row ?? "")?.[1];
    expect(documented).toBeDefined();
    const sc = parseScenario([
      {
        process: { s0: "0.5", sigma: 0.001, dtMs: 1_000, horizonMs: 10_000 },
        fills: { A: 1, k: 100 },
        strategy: { name: "avellaneda-stoikov", params: { gamma: 5, k: 100, orderSize: "1", sigma: 0.001 } },
      },
    ]);
    expect(sc.market.tickMicro / 1e6).toBe(Number(documented));
  });
});
