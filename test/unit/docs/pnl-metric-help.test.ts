import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { parseExposition } from "../observability/exposition.js";

/*
 * After a restart the engine's accounts start from the journal's (README Reliability, Restart), so
 * mm_position_shares shows the position earlier runs left plus this run's, and the unrealised and
 * total PnL gauges value that position. Their HELP and README's metrics table said "position since
 * start" and "the session's positions": a controller reconciling the gauge against the exchange's
 * holdings since the process started (seen on paper: -85.2 shown, all of it an earlier run's) was
 * told the wrong thing.
 */
const GAUGES = ["mm_position_shares", "mm_pnl_unrealised_usdc", "mm_pnl_total_usdc"] as const;

function readmeRow(name: string): string {
  const readme = readFileSync(join(packageRoot(), "README.md"), "utf8");
  const row = readme.split("\n").find((l) => l.startsWith(`| \`${name}\` |`));
  expect(row, name).toBeDefined();
  return row ?? "";
}

describe("position and PnL gauges say an earlier run's restored position counts", () => {
  it("in their HELP and in README's metrics table", async () => {
    const registry = new Registry();
    const metrics = createMetrics({ registry, clock: new SimClock(0), defaultMetrics: false });
    const families = parseExposition(await registry.metrics());
    metrics.close();
    for (const name of GAUGES) {
      const help = families.get(name)?.help ?? "";
      for (const [where, text] of [
        ["HELP", help],
        ["README", readmeRow(name)],
      ] as const) {
        expect(text, `${name} ${where}`).toMatch(/earlier run/);
        expect(text, `${name} ${where}`).not.toMatch(/[Pp]osition (taken )?since start|of the session/);
      }
    }
  });
});
