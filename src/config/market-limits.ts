import { mulWeiCeil, toWei, weiToString } from "../core/wei.js";
import { parseRiskConfig, type RiskConfig } from "../risk/config.js";
import type { ConfigIssue } from "./errors.js";
import { marketParams } from "./market-params.js";
import type { RawConfig } from "./schema.js";

/** One market's floor for a limit: what a single quote of its minimum size needs there. */
interface Need {
  readonly slug: string;
  readonly micro: bigint;
}

/** A risk limit checked against every market named in engine.markets. */
interface LimitRule {
  readonly field: string;
  readonly value: (risk: RiskConfig) => bigint;
  readonly need: (min: bigint, tick: bigint) => bigint;
  /** What the need is, said about the strictest market. */
  readonly what: (slug: string) => string;
  readonly effect: string;
  /** What to set instead, when the limit was meant for something else. */
  readonly hint?: string;
}

const minimumSize = (slug: string) => `the minimum order size on ${slug}`;
const capEffect = "from a flat position either side would pass it, so no quote could be placed on";
// A hard cap under one order was a way to wind a position down; the soft cap is the one for that.
const capHint = "to only reduce a position, lower the soft cap instead (reduce-only above it)";

const RULES: readonly LimitRule[] = [
  {
    field: "risk.order.maxSize",
    value: (r) => r.order.maxSizeMicro,
    need: (min) => min,
    what: minimumSize,
    effect: "no quote could be placed on",
  },
  {
    field: "risk.order.maxNotional",
    value: (r) => r.order.maxNotionalMicro,
    // The cheapest order there is: the minimum size at the lowest price (one tick), rounded up as a
    // BUY's makerAmount is.
    need: (min, tick) => mulWeiCeil(tick, min),
    what: (slug) => `one minimum-size order at one tick on ${slug}`,
    effect: "no quote could be placed on",
  },
  {
    field: "risk.inventory.perMarket.hard",
    value: (r) => r.inventory.perMarket.hardMicro,
    need: (min) => min,
    what: minimumSize,
    effect: capEffect,
    hint: capHint,
  },
  {
    field: "risk.inventory.total.hard",
    value: (r) => r.inventory.total.hardMicro,
    need: (min) => min,
    what: minimumSize,
    effect: capEffect,
    hint: capHint,
  },
];

/**
 * Risk limits under which no quote can ever be placed on a market listed in engine.markets: a
 * maximum order size or hard inventory cap below the market's minimum order size, or a maximum
 * notional below a minimum-size order at one tick. Tick and minimum size come from `markets.*`,
 * so this needs no exchange. One issue per limit, naming the strictest market and every market it
 * blocks. ["*"] is left to the engine's warning at start: which markets exist (and so which of
 * the configured minimums apply) only the exchange's list says.
 * @example marketLimitIssues(raw) // [{ field: "risk.order.maxSize", message: "must be ≥ 5 (…), got 2: …" }]
 */
export function marketLimitIssues(raw: RawConfig): ConfigIssue[] {
  const slugs = raw.engine.markets.filter((s) => s !== "*");
  if (slugs.length === 0) return [];
  const risk = parseRiskConfig(raw.risk);
  const params = slugs.map((slug) => {
    const p = marketParams(raw.markets, slug);
    return { slug, min: toWei(p.minOrderSize, "minOrderSize"), tick: toWei(p.tickSize, "tickSize") };
  });
  const issues: ConfigIssue[] = dustIssues(raw, params);
  for (const rule of RULES) {
    const value = rule.value(risk);
    const short: Need[] = params
      .map((p) => ({ slug: p.slug, micro: rule.need(p.min, p.tick) }))
      .filter((n) => value < n.micro);
    const strictest = short.reduce<Need | undefined>(
      (a, n) => (a === undefined || n.micro > a.micro ? n : a),
      undefined,
    );
    if (strictest === undefined) continue;
    issues.push({
      field: rule.field,
      message: `must be ≥ ${weiToString(strictest.micro)} (${rule.what(strictest.slug)}), got ${weiToString(value)}: ${rule.effect} ${short.map((n) => n.slug).join(", ")}${rule.hint === undefined ? "" : `; ${rule.hint}`}`,
    });
  }
  return issues;
}

/**
 * Minimum order sizes so small that a minimum-size SELL at one tick is worth under 1 micro-USDC: its
 * signed proceeds round down to 0, an order for nothing the signer refuses (`invalid_amounts`) and
 * the error-rate halt counts. At or above ceil(1 / tick) micro-shares every order the risk guard lets
 * through is worth 1 micro-USDC at least. One issue per setting (the default or the per-market map),
 * naming the strictest market and every market it concerns.
 */
function dustIssues(
  raw: RawConfig,
  params: readonly { slug: string; min: bigint; tick: bigint }[],
): ConfigIssue[] {
  const byField = new Map<string, { need: bigint; tick: bigint; got: bigint; slugs: string[] }>();
  for (const p of params) {
    const need = (1_000_000n + p.tick - 1n) / p.tick;
    if (p.min >= need) continue;
    const field = Object.hasOwn(raw.markets.minOrderSizes, p.slug)
      ? "markets.minOrderSizes"
      : "markets.minOrderSize";
    const at = byField.get(field);
    if (at === undefined) byField.set(field, { need, tick: p.tick, got: p.min, slugs: [p.slug] });
    else {
      at.slugs.push(p.slug);
      if (need > at.need) Object.assign(at, { need, tick: p.tick, got: p.min });
    }
  }
  return [...byField].map(([field, d]) => ({
    field,
    message: `must be ≥ ${weiToString(d.need)} at tick ${weiToString(d.tick)}, got ${weiToString(d.got)}: a minimum-size SELL at one tick would be worth under 1 micro-USDC, signed proceeds 0, refused as invalid_amounts, on ${d.slugs.join(", ")}`,
  }));
}
