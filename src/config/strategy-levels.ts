import { getStrategy } from "../../strategies/registry.js";
import { parseRiskConfig } from "../risk/config.js";
import type { ConfigIssue } from "./errors.js";
import type { StrategySetting } from "./schema-engine.js";

/** What the check reads: the strategies configured and the risk tree. */
export interface LevelSettings {
  readonly engine: {
    readonly strategy: StrategySetting;
    readonly strategyByMarket: Readonly<Record<string, StrategySetting>>;
  };
  readonly risk: unknown;
}

/**
 * A configured strategy that asks for more quotes per side than risk.order.maxLevels (its
 * `levelsPerSide`, e.g. bands' count of bands): the risk guard drops the farther ones on every
 * step of every token, so the setting never quotes as written. Refused at load, one issue per
 * strategy entry, rather than found in an `invalid_quote` line once the bot runs. Expects engine.*
 * and risk to have passed their own checks; an entry whose params do not parse is skipped
 * (reported already).
 * @example strategyLevelIssues(raw) // [{ field: "engine.strategy.params.bands", message: "has 12 bands, more than risk.order.maxLevels (10) …" }]
 */
export function strategyLevelIssues(raw: LevelSettings): ConfigIssue[] {
  const cap = parseRiskConfig(raw.risk).order.maxLevels;
  const entries: [string, StrategySetting][] = [
    ["engine.strategy.params", raw.engine.strategy],
    ...Object.entries(raw.engine.strategyByMarket).map(([slug, s]): [string, StrategySetting] => [
      `engine.strategyByMarket.${slug}.params`,
      s,
    ]),
  ];
  const issues: ConfigIssue[] = [];
  for (const [base, entry] of entries) {
    const strategy = getStrategy(entry.name);
    if (strategy?.levelsPerSide === undefined) continue;
    let levels: { field: string; levels: number };
    try {
      levels = strategy.levelsPerSide(strategy.parseParams(entry.params ?? {}));
    } catch {
      continue;
    }
    if (levels.levels <= cap) continue;
    issues.push({
      field: `${base}.${levels.field}`,
      message: `has ${levels.levels} levels per side, more than risk.order.maxLevels (${cap}): the risk guard would drop the ${levels.levels - cap} farthest from the touch on every step (raise risk.order.maxLevels or quote fewer)`,
    });
  }
  return issues;
}
