import { marketParams } from "../config/market-params.js";
import type { MmConfig } from "../config/types.js";
import type { TokenMarket } from "../core/trading.js";
import { toWei } from "../core/wei.js";
import type { Market } from "../exchange/types.js";

/**
 * The tokens mm may quote, from the exchange's market list and the configured tick and minimum
 * sizes (the spec shows neither): both outcome tokens of every selected binary market that has
 * its conditionId and token ids. `select` holds market slugs, or "*" for every market; a market
 * that is not OPEN is still returned (with its status) so the risk guard can hold it flat and
 * resume when it reopens.
 * @example tokenMarkets(await client.markets.list(), config.markets, ["*"])
 */
export function tokenMarkets(
  markets: readonly Market[],
  cfg: MmConfig["markets"],
  select: readonly string[],
): TokenMarket[] {
  const all = select.includes("*");
  const wanted = new Set(select);
  const out: TokenMarket[] = [];
  for (const m of markets) {
    if (!all && !wanted.has(m.slug)) continue;
    if (!isDeployed(m)) continue;
    const { tickSize, minOrderSize } = marketParams(cfg, m.slug);
    const closesAtMs = m.closesAt === null ? undefined : Date.parse(m.closesAt);
    const base = {
      marketId: m.id,
      conditionId: m.conditionId.toLowerCase(),
      tickMicro: Number(toWei(tickSize, "tickSize")),
      minSizeMicro: toWei(minOrderSize, "minOrderSize"),
      feeTakerBps: m.feeTakerBps,
      negRisk: m.negRiskEligible,
      closesAtMs: Number.isNaN(closesAtMs) ? undefined : closesAtMs,
      status: m.status,
    };
    const [yes = "YES", no = "NO"] = m.outcomeLabels;
    out.push({ ...base, tokenId: m.yesTokenId, outcome: yes, outcomeIndex: 0 });
    out.push({ ...base, tokenId: m.noTokenId, outcome: no, outcomeIndex: 1 });
  }
  return out;
}

/**
 * Whether a market has its condition and both token ids: one without them is not deployed on chain
 * yet, and nothing can be quoted or subscribed to on it.
 */
export function isDeployed(
  m: Market,
): m is Market & { conditionId: string; yesTokenId: string; noTokenId: string } {
  return m.conditionId !== null && m.yesTokenId !== null && m.noTokenId !== null;
}

/** Markets named in `select` (by slug, not through "*") that are listed but not deployed (isDeployed). */
export function undeployedNamed(markets: readonly Market[], select: readonly string[]): Market[] {
  const wanted = new Set(select);
  return markets.filter((m) => wanted.has(m.slug) && !isDeployed(m));
}

/** Slugs named in `select` that the exchange does not list: a configuration mistake worth stopping for. */
export function unknownSlugs(markets: readonly Market[], select: readonly string[]): string[] {
  const known = new Set(markets.map((m) => m.slug));
  return select.filter((s) => s !== "*" && !known.has(s));
}
