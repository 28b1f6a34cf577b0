import type { MmConfig } from "../config/types.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import type { ExchangeError } from "../exchange/exchange-error.js";
import { keyRefused } from "../exchange/exchange-error.js";
import { rateLimitsFor } from "../exchange/rate-limits.js";
import { missingScope, publicReadScopeRefused } from "../exchange/scope-refusal.js";
import type { Logger } from "../observability/logger.js";
import type { SlugLookup } from "./journaled-slugs.js";
import { type QuotedMarkets, type RenamedAtStart, type SlugReusedAtStart, selectMarkets } from "./markets.js";
import { StartStoppedError, startReadError } from "./start-errors.js";

/**
 * The daemon's first step: selectMarkets (GET /api/markets, /api/markets/{slug}), bounded by a stop
 * request. A request before or during the reads closes `client` (cutting the reads in flight: a
 * slow or hung exchange must not hold the stop until the lifecycle's deadline) and rejects with a
 * StartStoppedError; nothing has been opened yet, so there is nothing else to stop. A read that
 * fails rejects with a StartReadError naming exchange.baseUrl (see startReadError).
 * The market reads are public in the spec (no key needed; a key only raises the rate ceiling): one
 * refused to the key for a scope (403 `api_key_scope_missing`, e.g. markets:read) is warned of once,
 * naming the scope, and the reads are made again without the key, through `keyless()` (paced to the
 * spec's IP limit), rather than stopping. That keyless client is handed back open (`keyless`): the
 * running daemon's market reads (the open-market sweep, the closed-market watch) go through it too,
 * on the same pacing, since the key would be refused there all run. Only when the exchange refuses
 * the keyless reads too (401: it wants a key) does the scope refusal end the start (exit 3, naming
 * the scope). `renamed` (the journal's word: journaledSlugs) finds a configured slug's market that
 * took a new slug in an earlier run; each found so is warned of (the config should name the new one).
 * @example const { markets, keyless } = await marketsAtStart(client, config, logger, stopRequested, () => keylessClient(config, clock, logger));
 */
export async function marketsAtStart(
  client: ExchangeHttpClient,
  config: MmConfig,
  logger: Logger,
  stop: AbortSignal | undefined,
  keyless: () => ExchangeHttpClient,
  renamed?: SlugLookup,
): Promise<StartMarkets> {
  const reasonOf = (s: AbortSignal) => String(s.reason ?? "stop requested");
  if (stop?.aborted === true) throw new StartStoppedError(reasonOf(stop));
  let unkeyed: ExchangeHttpClient | undefined;
  const reading = selectMarkets(client, config, renamed)
    .then((markets): StartMarkets => ({ markets, keyless: undefined }))
    .catch(async (err: unknown): Promise<StartMarkets> => {
      if (!publicReadScopeRefused(err) || stop?.aborted === true) throw err;
      warnKeyless(logger, err as ExchangeError);
      unkeyed = keyless();
      const markets = await selectMarkets(unkeyed, config, renamed).catch((again: unknown) => {
        // The exchange wants a key there after all: the key's missing scope is what to fix.
        throw keyRefused(again) ? err : again;
      });
      return { markets, keyless: unkeyed };
    })
    .catch((err: unknown) => {
      unkeyed?.close();
      throw startReadError(err, config.exchange.baseUrl);
    })
    .then((read) => {
      for (const r of read.markets.renamed ?? []) warnRenamed(logger, r);
      for (const r of read.markets.reused ?? []) warnReused(logger, r);
      return read;
    });
  if (stop === undefined) return reading;
  let onAbort: () => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      client.close();
      unkeyed?.close();
      reject(new StartStoppedError(reasonOf(stop)));
    };
  });
  stop.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([reading, stopped]);
  } finally {
    stop.removeEventListener("abort", onAbort);
    // A read cut by the stop fails after the race is decided: nobody waits for it any more.
    reading.catch((err: unknown) => logger.debug({ err }, "start: a market read cut by the stop failed"));
  }
}

/** The start's markets, and the keyless client their reads went through, if they did (the caller closes it). */
export interface StartMarkets {
  readonly markets: QuotedMarkets;
  readonly keyless: ExchangeHttpClient | undefined;
}

/**
 * A configured slug the exchange no longer knows, whose market the journal saw take a new slug in
 * an earlier run (journaledSlugs): quoted under the new one; the config should say so.
 */
function warnRenamed(logger: Logger, r: RenamedAtStart): void {
  logger.warn(
    { configured: r.configured, slug: r.slug, marketId: r.marketId },
    `engine.markets names "${r.configured}", which the exchange no longer knows (404): an earlier run on this journal saw its market (${r.marketId}) take the slug "${r.slug}", so it is quoted under "${r.slug}"; update engine.markets (and any markets.tickSizes, markets.minOrderSizes or engine.strategyByMarket entry of "${r.configured}") to "${r.slug}"`,
  );
}

/**
 * A configured slug that is now another market's than the one an earlier run on this journal traded
 * under it and saw leave it: the config names the slug, so its market now is quoted; the market
 * traded before is not (its position, if any, left as it is), which the operator may not mean.
 */
function warnReused(logger: Logger, r: SlugReusedAtStart): void {
  logger.warn(
    { configured: r.configured, marketId: r.marketId, left: r.left, slug: r.slug },
    `engine.markets names "${r.configured}", now the slug of market ${r.marketId}; an earlier run on this journal traded market ${r.left} under it and saw it take the slug "${r.slug}": ${r.marketId} is quoted as configured, ${r.left} is not (any position there is left as it is); to keep trading ${r.left}, name "${r.slug}" in engine.markets`,
  );
}

/** The warning of a market read refused to the key for a scope: the scope, and what mm does instead. */
function warnKeyless(logger: Logger, err: ExchangeError): void {
  const { code, endpoint, httpStatus: status } = err;
  const requiredScope = missingScope(err);
  const ip = rateLimitsFor("GET", "/api/markets").find((r) => r.rule.scope === "ip");
  const rate = ip === undefined ? "" : ` (the spec's IP limit: ${ip.limit} per ${ip.windowMs / 1000} s)`;
  logger.warn(
    { code, endpoint, status, requiredScope },
    `the exchange refused ${endpoint} for a scope the API key lacks (${code}: ${requiredScope ?? "a scope"}), ` +
      `though the spec makes the market reads public: reading the markets without the key${rate}, at start and while running (the open-market sweep, the closed-market watch); grant the key ${requiredScope ?? "the scope"} for its raised rate ceiling`,
  );
}
