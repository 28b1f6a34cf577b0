import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/config/paths.js";
import { settings } from "../../../src/config/schema.js";

/*
 * README names daemon settings in backticks (`engine.session`, `journal.path`, …). Outside the
 * Backtesting sections (whose `engine.*` / `markets.*` are backtest-config keys, config/backtest/
 * README.md), every such name must be a real setting: `mm config`/`mm run` refuse unknown keys.
 *
 * A review found README "Skipped quoting steps" saying "`engine.tolerance` (`priceTicks`,
 * `sizeFraction`) already decides when a resting quote is close enough to stay" (now corrected). The daemon has no
 * `engine.tolerance`; its settings are `engine.priceToleranceTicks` and `engine.sizeTolerance`
 * (src/config/schema-engine.ts; mapped in src/app/daemon.ts:123-124). A config file following the
 * README is refused with exit 2.
 */

const README = readFileSync(join(packageRoot(), "README.md"), "utf8");

/** README without the backtest sections (## Backtesting … up to ## The mock exchange). */
function daemonPart(): string[] {
  const lines = README.split("\n");
  const from = lines.indexOf("## Backtesting");
  const to = lines.indexOf("## The mock exchange");
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  return [...lines.slice(0, from), ...lines.slice(to)];
}

describe("README setting names", () => {
  it("names only settings the daemon's schema has", () => {
    const names = new Set(settings().map((s) => s.path));
    const sections = new Set([...names].map((p) => p.split(".")[0]));
    const unknown: string[] = [];
    for (const line of daemonPart()) {
      for (const m of line.matchAll(/`([a-zA-Z]+(?:\.[a-zA-Z]+)+)`/g)) {
        const name = m[1] as string;
        if (sections.has(name.split(".")[0] as string) && !names.has(name)) unknown.push(name);
      }
    }
    expect(unknown).toEqual([]);
  });
});
