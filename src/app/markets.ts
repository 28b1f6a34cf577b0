import { type ConfiguredStrategy, parseStrategyConfig } from "../../strategies/registry.js";
import { ConfigError } from "../config/errors.js";
import type { MmConfig } from "../config/types.js";
import { publicUrl } from "../core/public-url.js";
import type { TokenMarket } from "../core/trading.js";
import { tokenMarkets, type UnquotableMarket, unknownSlugs, unquotableNamed } from "../engine/markets.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import { buildPath } from "../exchange/paths.js";
import type { Market } from "../exchange/types.js";
import type { SlugLookup } from "./journaled-slugs.js";
import {
  journaledMarket,
  journalOnFound,
  paramsUnderNewSlugs,
  type RenamedAtStart,
  type SlugReusedAtStart,
  type SlugTakenAtStart,
} from "./renamed-markets.js";
import { readUrlOf } from "./start-errors.js";
import { NO_MARKETS_ISSUE } from "./start-settings.js";

/** The most markets one GET /api/markets asks for (the mock's cap; the spec shows no paging). */
const LIST_LIMIT = 500;

/** What the daemon quotes: the tokens, each one's strategy, and lookups the gateway wiring needs. */
export interface QuotedMarkets {
  readonly tokens: readonly TokenMarket[];
  /** Market slugs in quoting order. */
  readonly slugs: readonly string[];
  /** Markets engine.markets names that cannot be quoted (not deployed yet, or not binary), and why. */
  readonly unquotable: readonly UnquotableMarket[];
  strategyFor(market: TokenMarket): ConfiguredStrategy | undefined;
  /** marketId of a (lowercase) conditionId, for condition_lifecycle events. */
  marketOfCondition(conditionId: string): string | undefined;
  slugOf(marketId: string): string | undefined;
  /**
   * Markets engine.markets names by a slug they left, found through the journal (SlugLookup): the
   * start warns of each (the config should name the new slug). Absent or empty: none.
   */
  readonly renamed?: readonly RenamedAtStart[];
  /** Slugs the selected markets have that the journal does not know: the run journals them. */
  readonly slugsTaken?: readonly SlugTakenAtStart[];
  /** Configured slugs now another market's than the one an earlier run traded under them: warned. */
  readonly reused?: readonly SlugReusedAtStart[];
}

export type { RenamedAtStart, SlugReusedAtStart, SlugTakenAtStart };

/**
 * Resolves `engine.markets` against the exchange: the market list (and GET /api/markets/{slug} for
 * any named slug the list does not show), both outcome tokens of each selected binary market with
 * the configured tick and minimum size, and each market's strategy (`engine.strategyByMarket[slug]`,
 * else `engine.strategy`; both were validated at load). An empty selection or a slug the exchange
 * does not know is a ConfigError (exit code 2), so a typo never silently quotes nothing; unless
 * `renamed` (the journal: journaledSlugs) knows the market that left it and the exchange still has
 * that market (by its id in the list, or by the slug it took): it is quoted under its slug now,
 * with the settings (tick, minimum size, strategy) the config gives the slug it names (`renamed`
 * in the result: the start warns of it), or, when engine.markets names its slug now too, that
 * slug's (the market selected once, by its id). The journal is asked of the slugs found too: one now
 * another market's than the one an earlier run traded under it is quoted as named (`reused`: the
 * start warns, naming both markets), and a slug the journal does not know a selected market has
 * (`slugsTaken`) is the run's to journal.
 * @example const q = await selectMarkets(client, config); q.tokens.length // 2 per market
 */
export async function selectMarkets(
  client: ExchangeHttpClient,
  config: MmConfig,
  renamed?: SlugLookup,
): Promise<QuotedMarkets> {
  const configured = config.engine.markets;
  if (configured.length === 0) {
    throw new ConfigError([NO_MARKETS_ISSUE]);
  }
  const listed = await client.markets.list({ limit: LIST_LIMIT });
  const markets = [...listed];
  // By id: a config naming both the slug a market left and the one it took reads it twice.
  const add = (m: Market) => {
    if (!markets.some((x) => x.id === m.id)) markets.push(m);
  };
  const notFound = new Map<string, ExchangeError>();
  const moved: RenamedAtStart[] = [];
  const taken: SlugTakenAtStart[] = [];
  for (const slug of unknownSlugs(listed, configured)) {
    const found = await fetchMarket(client, slug);
    if (!(found instanceof ExchangeError)) {
      add(found);
      continue;
    }
    const journaled = renamed?.(slug);
    const now = await journaledMarket(client, markets, journaled, fetchMarket);
    if (now === undefined || journaled === undefined) notFound.set(slug, found);
    else {
      moved.push({ configured: slug, slug: now.slug, marketId: now.id });
      if (now.slug !== journaled.slug)
        taken.push({ marketId: now.id, slug: now.slug, previous: journaled.slug });
      add(now);
    }
  }
  // A market found through the journal is selected as the config names it, and its settings read
  // as the config names it, unless the config names its slug now too: that slug's own settings win.
  const select = configured.map((s) => moved.find((m) => m.configured === s)?.slug ?? s);
  const configuredSlug = (slug: string) =>
    configured.includes(slug) ? slug : (moved.find((m) => m.slug === slug)?.configured ?? slug);
  const missing = unknownSlugs(markets, select);
  if (missing.length > 0) {
    const base = publicUrl(config.exchange.baseUrl);
    throw new ConfigError(
      missing.map((slug) => ({ field: "engine.markets", message: noMarket(slug, base, notFound.get(slug)) })),
    );
  }
  const tokens = tokenMarkets(markets, paramsUnderNewSlugs(config.markets, moved, configured), select);
  const unquotable = unquotableNamed(markets, select);
  if (tokens.length === 0)
    throw new ConfigError([{ field: "engine.markets", message: nothingQuotable(unquotable) }]);
  const slugById = new Map(markets.map((m) => [m.id, m.slug]));
  const onFound = journalOnFound(configured, markets, new Set(tokens.map((t) => t.marketId)), renamed);
  const marketByCondition = new Map(tokens.map((t) => [t.conditionId, t.marketId]));
  const strategies = new Map<string, ConfiguredStrategy>();
  const strategyOf = (slug: string): ConfiguredStrategy => {
    let s = strategies.get(slug);
    if (s === undefined) {
      const entry = Object.hasOwn(config.engine.strategyByMarket, slug)
        ? config.engine.strategyByMarket[slug]
        : config.engine.strategy;
      s = parseStrategyConfig(entry);
      strategies.set(slug, s);
    }
    return s;
  };
  return {
    tokens,
    slugs: [...new Set(tokens.map((t) => slugById.get(t.marketId) ?? t.marketId))],
    unquotable,
    strategyFor: (m) => {
      const slug = slugById.get(m.marketId);
      return slug === undefined ? undefined : strategyOf(configuredSlug(slug));
    },
    marketOfCondition: (c) => marketByCondition.get(c.toLowerCase()),
    slugOf: (id) => slugById.get(id),
    renamed: moved,
    slugsTaken: [...taken, ...onFound.taken],
    reused: onFound.reused,
  };
}

/** Why a selection leaves no token to quote: every market it names (or the exchange lists) is unquotable. */
function nothingQuotable(unquotable: readonly UnquotableMarket[]): string {
  if (unquotable.length === 0) {
    return "nothing to quote: the exchange lists no binary market with its condition and token ids";
  }
  return `nothing to quote: ${unquotable.map((u) => `${JSON.stringify(u.market.slug)} ${UNQUOTABLE[u.why]}`).join("; ")}`;
}

/** What each reason a named market is not quoted means, for the operator. */
export const UNQUOTABLE: Readonly<Record<UnquotableMarket["why"], string>> = {
  not_deployed:
    "is listed without its condition or token ids (not deployed on chain yet; the list is read at start only, so restart mm once it is)",
  not_binary:
    "is not a binary market (it has no NO token): mm quotes the YES and NO tokens of binary markets only",
};

/** The market, or the 404 that says the exchange has none by that slug. */
async function fetchMarket(client: ExchangeHttpClient, slug: string): Promise<Market | ExchangeError> {
  try {
    return await client.markets.get(slug);
  } catch (err) {
    if (err instanceof ExchangeError && err.httpStatus === 404) return err;
    throw err;
  }
}

/**
 * Why a slug is not quoted, naming the exchange asked (exchange.baseUrl, no credentials) and the URL
 * read: the same slug refused by another exchange than meant (a test venue, a stale setting) is told
 * from a typo. Without a 404, the lookup answered a market under another slug.
 */
function noMarket(slug: string, base: string, notFound: ExchangeError | undefined): string {
  const path = notFound?.path ?? buildPath("/api/markets/{slug}", { slug });
  const answer = notFound === undefined ? "a market of another slug" : "404";
  return (
    `the exchange has no market ${JSON.stringify(slug)} (exchange.baseUrl ${base}: ` +
    `GET ${readUrlOf(base, path)} answered ${answer}; check the slug with GET /api/markets)`
  );
}
