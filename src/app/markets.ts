import { type ConfiguredStrategy, parseStrategyConfig } from "../../strategies/registry.js";
import { ConfigError } from "../config/errors.js";
import type { MmConfig } from "../config/types.js";
import type { TokenMarket } from "../core/trading.js";
import { tokenMarkets, unknownSlugs } from "../engine/markets.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { Market } from "../exchange/types.js";

/** The most markets one GET /api/markets asks for (the mock's cap; the spec shows no paging). */
const LIST_LIMIT = 500;

/** What the daemon quotes: the tokens, each one's strategy, and lookups the gateway wiring needs. */
export interface QuotedMarkets {
  readonly tokens: readonly TokenMarket[];
  /** Market slugs in quoting order. */
  readonly slugs: readonly string[];
  strategyFor(market: TokenMarket): ConfiguredStrategy | undefined;
  /** marketId of a (lowercase) conditionId, for condition_lifecycle events. */
  marketOfCondition(conditionId: string): string | undefined;
  slugOf(marketId: string): string | undefined;
}

/**
 * Resolves `engine.markets` against the exchange: the market list (and GET /api/markets/{slug} for
 * any named slug the list does not show), both outcome tokens of each selected binary market with
 * the configured tick and minimum size, and each market's strategy (`engine.strategyByMarket[slug]`,
 * else `engine.strategy`; both were validated at load). An empty selection or a slug the exchange
 * does not know is a ConfigError (exit code 2), so a typo never silently quotes nothing.
 * @example const q = await selectMarkets(client, config); q.tokens.length // 2 per market
 */
export async function selectMarkets(client: ExchangeHttpClient, config: MmConfig): Promise<QuotedMarkets> {
  const select = config.engine.markets;
  if (select.length === 0) {
    throw new ConfigError([
      { field: "engine.markets", message: 'nothing to quote: list market slugs, or ["*"] for every market' },
    ]);
  }
  const listed = await client.markets.list({ limit: LIST_LIMIT });
  const markets = [...listed];
  for (const slug of unknownSlugs(listed, select)) {
    const found = await fetchMarket(client, slug);
    if (found !== undefined) markets.push(found);
  }
  const missing = unknownSlugs(markets, select);
  if (missing.length > 0) {
    throw new ConfigError(
      missing.map((slug) => ({
        field: "engine.markets",
        message: `the exchange has no market ${JSON.stringify(slug)} (check the slug with GET /api/markets)`,
      })),
    );
  }
  const tokens = tokenMarkets(markets, config.markets, select);
  const slugById = new Map(markets.map((m) => [m.id, m.slug]));
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
    strategyFor: (m) => {
      const slug = slugById.get(m.marketId);
      return slug === undefined ? undefined : strategyOf(slug);
    },
    marketOfCondition: (c) => marketByCondition.get(c.toLowerCase()),
    slugOf: (id) => slugById.get(id),
  };
}

async function fetchMarket(client: ExchangeHttpClient, slug: string): Promise<Market | undefined> {
  try {
    return await client.markets.get(slug);
  } catch (err) {
    if (err instanceof ExchangeError && err.httpStatus === 404) return undefined;
    throw err;
  }
}
