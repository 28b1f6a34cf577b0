import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCENARIO_DEFAULTS } from "../../../src/backtest/synthetic/scenario.js";
import { packageRoot } from "../../../src/config/paths.js";

/*
 * config/backtest/README.md's scenario table lists each key's default. It once said the market's
 * tick defaulted to 0.000001 while the code used 0.01 (review 16): a scenario trusting the doc ran
 * A–S on a cent grid, a different experiment, with no warning. This holds every default cell to
 * SCENARIO_DEFAULTS, which parseScenario reads.
 */

/** `{a: "x", b: 1, c: true}` (the README's spelling) as an object. */
function cellObject(cell: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of cell.matchAll(/(\w+): ("[^"]*"|-?[\d.]+|true|false)/g)) {
    const v = m[2] as string;
    out[m[1] as string] = v.startsWith('"')
      ? v.slice(1, -1)
      : v === "true" || v === "false"
        ? v === "true"
        : Number(v);
  }
  return out;
}

/** The scenario table's rows: key cell and default cell. */
function scenarioRows(): { keys: string[]; defaults: Record<string, unknown> }[] {
  const readme = readFileSync(join(packageRoot(), "config/backtest/README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Synthetic scenario"), readme.indexOf("### The Avellaneda"));
  const lines = section.split("\n");
  const head = lines.indexOf("| key | default | meaning |");
  expect(head, "the scenario table has a default column").toBeGreaterThanOrEqual(0);
  const rows = [];
  for (let i = head + 2; i < lines.length && (lines[i] as string).startsWith("|"); i++) {
    const [keyCell = "", defaultCell = ""] = (lines[i] as string).split(" | ");
    rows.push({
      keys: [...keyCell.matchAll(/`(\w+)`/g)].map((m) => m[1] as string),
      defaults: cellObject(defaultCell),
    });
  }
  return rows;
}

describe("config/backtest/README.md scenario table", () => {
  it("lists the defaults parseScenario uses, for every key", () => {
    const documented: Record<string, unknown> = {};
    for (const row of scenarioRows()) {
      if (row.keys.length === 1) documented[row.keys[0] as string] = row.defaults;
      else for (const k of row.keys) documented[k] = row.defaults[k];
    }
    expect(documented).toEqual(SCENARIO_DEFAULTS);
  });
});
