import { getStrategy } from "../../strategies/registry.js";
import type { QuoteSize } from "../../strategies/types.js";
import { toWei, weiToString } from "../core/wei.js";
import type { ConfigIssue } from "./errors.js";
import { marketParams } from "./market-params.js";
import type { StrategySetting } from "./schema-engine.js";
import type { MmConfig } from "./types.js";

/** What checking the strategies' sizes found: refusals and warnings, one per parameter. */
export interface SizeFindings {
  readonly issues: ConfigIssue[];
  readonly warnings: ConfigIssue[];
}

/** What the check reads: the raw config at load, or the loaded one (warnings). */
export interface SizeSettings {
  readonly engine: {
    readonly markets: readonly string[];
    readonly strategy: StrategySetting;
    readonly strategyByMarket: Readonly<Record<string, StrategySetting>>;
  };
  readonly markets: MmConfig["markets"];
}

/** One parameter's sizes short of a market's minimum: the strictest market and every one concerned. */
interface Short {
  field: string;
  size: bigint;
  min: bigint;
  strictest: string;
  slugs: string[];
}

const SKIPPED = "(a quote under a market's minimum is skipped)";

/**
 * Strategy sizes against the minimum order size of each market engine.markets names (its
 * `engine.strategyByMarket` entry, else `engine.strategy`; minimums from `markets.*`). A quote
 * under the minimum is skipped, never enlarged, so:
 * - every size of a market's strategy below its minimum: nothing is ever quoted there, refused
 *   (an issue on the largest size's parameter, naming the strictest market);
 * - some sizes below, some not: only warned about. engine.strategy serves every market, and a band
 *   sized for the markets with a small minimum is a valid setup on a market whose minimum skips it.
 * ["*"] is not checked (which markets exist, and so which minimums apply, only the exchange says).
 * Expects engine.*, markets.* to have passed their format checks.
 * @example strategySizeFindings(raw).issues // [{ field: "engine.strategy.params.bands[1].size", message: "must be ≥ 30 …" }]
 */
export function strategySizeFindings(raw: SizeSettings): SizeFindings {
  const refused = new Map<string, Short>();
  const warned = new Map<string, Short>();
  for (const slug of raw.engine.markets.filter((s) => s !== "*")) {
    const own = Object.hasOwn(raw.engine.strategyByMarket, slug);
    const entry = own ? raw.engine.strategyByMarket[slug] : raw.engine.strategy;
    const base = own ? `engine.strategyByMarket.${slug}.params` : "engine.strategy.params";
    const sizes = sizesOf(entry);
    if (sizes.length === 0) continue;
    const min = toWei(marketParams(raw.markets, slug).minOrderSize, "minOrderSize");
    const short = sizes.filter((s) => s.sizeMicro < min);
    if (short.length === sizes.length) {
      const largest = short.reduce((a, s) => (s.sizeMicro > a.sizeMicro ? s : a));
      note(refused, `${base}.${largest.field}`, largest.sizeMicro, min, slug);
    } else for (const s of short) note(warned, `${base}.${s.field}`, s.sizeMicro, min, slug);
  }
  return {
    issues: [...refused.values()].map((s) => ({
      field: s.field,
      message: `must be ≥ ${weiToString(s.min)} (the minimum order size on ${s.strictest}), got ${weiToString(s.size)}: every size the strategy quotes is below it, so nothing would ever be quoted on ${s.slugs.join(", ")} ${SKIPPED}`,
    })),
    warnings: [...warned.values()].map((s) => ({
      field: s.field,
      message: `${weiToString(s.size)} is below the minimum order size ${weiToString(s.min)} on ${s.slugs.join(", ")}: that band is never quoted there ${SKIPPED}`,
    })),
  };
}

function note(into: Map<string, Short>, field: string, size: bigint, min: bigint, slug: string): void {
  const at = into.get(field);
  if (at === undefined) into.set(field, { field, size, min, strictest: slug, slugs: [slug] });
  else {
    at.slugs.push(slug);
    if (min > at.min) Object.assign(at, { min, strictest: slug });
  }
}

/** The sizes a `{name, params}` entry quotes; [] when it does not parse (reported already) or cannot say. */
function sizesOf(entry: StrategySetting | undefined): readonly QuoteSize[] {
  const strategy = entry === undefined ? undefined : getStrategy(entry.name);
  if (strategy?.quoteSizes === undefined) return [];
  try {
    return strategy.quoteSizes(strategy.parseParams(entry?.params ?? {}));
  } catch {
    return [];
  }
}
