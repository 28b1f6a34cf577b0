import { marketParams } from "../config/market-params.js";
import type { MmConfig } from "../config/types.js";
import type { TokenMarket } from "../core/trading.js";
import { SETTLED_MARKET_STATUSES } from "../core/types.js";
import { toWei } from "../core/wei.js";
import type { Market } from "../exchange/types.js";
import { FieldReader } from "../gateway/schema/fields.js";

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
      slug: m.slug,
      conditionId: m.conditionId.toLowerCase(),
      tickMicro: Number(toWei(tickSize, "tickSize")),
      minSizeMicro: toWei(minOrderSize, "minOrderSize"),
      feeTakerBps: m.feeTakerBps,
      negRisk: m.negRiskEligible,
      closesAtMs: Number.isNaN(closesAtMs) ? undefined : closesAtMs,
      status: m.status,
    };
    const payouts = recordPayouts(m);
    const full = payouts === undefined ? base : { ...base, payouts };
    const [yes = "YES", no = "NO"] = m.outcomeLabels;
    out.push({ ...full, tokenId: m.yesTokenId, outcome: yes, outcomeIndex: 0 });
    out.push({ ...full, tokenId: m.noTokenId, outcome: no, outcomeIndex: 1 });
  }
  return out;
}

/**
 * The tokens whose books are watched live (subscribed on /ws/market, under the tracker's stall
 * detector): those of markets not listed settled. A RESOLVED or VOIDED market's book no longer
 * moves, so watching it only raised stale verdicts and snapshot requests; its tokens are still
 * traded by the engine (positions, and marks pinned at the record's payouts).
 * @example feed.subscribeBooks(watchedBookTokens(markets.tokens).map((t) => t.tokenId))
 */
export function watchedBookTokens<T extends Pick<TokenMarket, "status">>(tokens: readonly T[]): T[] {
  return tokens.filter((t) => !SETTLED_MARKET_STATUSES.has(t.status));
}

/**
 * The record's payout vector (`payoutNumerators`, "any" in the spec: read as market_resolved's
 * `payouts` are, a list or a map of decimal strings or integers); undefined before resolution or
 * when it cannot be read (the marks then stay the book's).
 * @example recordPayouts(market) // { "0": "1", "1": "0" } once YES won
 */
export function recordPayouts(m: Market): Readonly<Record<string, string>> | undefined {
  const r = new FieldReader({ payoutNumerators: m.payoutNumerators });
  if (!r.has("payoutNumerators")) return undefined;
  const payouts = r.payoutNumerators("payoutNumerators");
  return r.failed === undefined ? payouts : undefined;
}

/**
 * Whether a market has its condition and both token ids: the engine quotes binary markets only, so
 * one without them is never quoted.
 */
export function isDeployed(
  m: Market,
): m is Market & { conditionId: string; yesTokenId: string; noTokenId: string } {
  return m.conditionId !== null && m.yesTokenId !== null && m.noTokenId !== null;
}

/**
 * Why a market cannot be quoted: `not_deployed` (no conditionId or YES token yet: the spec's
 * conditionId is null until deployment is confirmed) or `not_binary` (deployed, but without a NO
 * token: the spec's noTokenId is null for non-binary markets).
 */
export type Unquotable = "not_deployed" | "not_binary";

/** A market engine.markets names that the engine cannot quote, and why. */
export interface UnquotableMarket {
  readonly market: Market;
  readonly why: Unquotable;
}

/** Markets named in `select` (by slug, not through "*") that are listed but cannot be quoted. */
export function unquotableNamed(markets: readonly Market[], select: readonly string[]): UnquotableMarket[] {
  const wanted = new Set(select);
  const out: UnquotableMarket[] = [];
  for (const m of markets) {
    if (!wanted.has(m.slug) || isDeployed(m)) continue;
    out.push({
      market: m,
      why: m.conditionId === null || m.yesTokenId === null ? "not_deployed" : "not_binary",
    });
  }
  return out;
}

/** Slugs named in `select` that the exchange does not list: a configuration mistake worth stopping for. */
export function unknownSlugs(markets: readonly Market[], select: readonly string[]): string[] {
  const known = new Set(markets.map((m) => m.slug));
  return select.filter((s) => s !== "*" && !known.has(s));
}
