import type { MmConfig } from "../config/types.js";
import type { ExchangeHttpClient } from "../exchange/client.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { Market } from "../exchange/types.js";
import type { JournaledSlug } from "../journal/market-slugs.js";
import type { SlugLookup } from "./journaled-slugs.js";

/** A configured slug the exchange no longer knows, whose market the journal saw take `slug`. */
export interface RenamedAtStart {
  /** The slug engine.markets names (a 404 now). */
  readonly configured: string;
  /** The market's slug now, which it is quoted and read by. */
  readonly slug: string;
  readonly marketId: string;
}

/**
 * A slug the start found a selected market under that the journal does not say it has (it was
 * retitled again, or back, while mm was down): the run journals it (`market_slugs`), or the journal
 * stays a rename behind (the next start, the market past the list's cap, reads the stale slug, a 404,
 * and exits 2; and a list showing the stale slug is not known to be a slug the market left).
 */
export interface SlugTakenAtStart {
  readonly marketId: string;
  readonly slug: string;
  /** The slug the journal says the market took last. */
  readonly previous: string;
}

/**
 * A configured slug the exchange knows, as another market's (`marketId`) than the one an earlier
 * run traded under it and saw leave it (`left`, now under `slug`): the config wins (it names the
 * slug), so `left` is not quoted by this run, its position (if any) left alone: warned at start.
 */
export interface SlugReusedAtStart {
  readonly configured: string;
  readonly marketId: string;
  readonly left: string;
  readonly slug: string;
}

/** The fetch of one market by slug: the market, or the 404 that says there is none by that slug. */
export type FetchMarket = (client: ExchangeHttpClient, slug: string) => Promise<Market | ExchangeError>;

/**
 * The market the journal says left a slug (`journaled`: its id, and the slug it took last): the
 * record of that id already read (the list's, whatever slug it shows: the exchange's word now; or
 * one read by another configured slug), else its record by the journaled slug when it is that
 * market's (a slug since reused by another market is not it).
 */
export async function journaledMarket(
  client: ExchangeHttpClient,
  read: readonly Market[],
  journaled: JournaledSlug | undefined,
  fetchMarket: FetchMarket,
): Promise<Market | undefined> {
  if (journaled === undefined) return undefined;
  const byId = read.find((m) => m.id === journaled.marketId);
  if (byId !== undefined) return byId;
  const found = await fetchMarket(client, journaled.slug);
  return found instanceof ExchangeError || found.id !== journaled.marketId ? undefined : found;
}

/**
 * What the journal says of the configured slugs the exchange knows (`read`: the markets read): one
 * another market took since the market an earlier run traded under it left it (`reused`, unless
 * that market is quoted anyway: its slug now named too), and one whose market took it back while mm
 * was down (`taken`: to journal). A config on `*` names no slug: nothing.
 */
export function journalOnFound(
  configured: readonly string[],
  read: readonly Market[],
  quoted: ReadonlySet<string>,
  renamed: SlugLookup | undefined,
): { reused: SlugReusedAtStart[]; taken: SlugTakenAtStart[] } {
  const reused: SlugReusedAtStart[] = [];
  const taken: SlugTakenAtStart[] = [];
  if (renamed === undefined) return { reused, taken };
  for (const slug of configured) {
    const market = read.find((m) => m.slug === slug);
    const journaled = market === undefined ? undefined : renamed(slug);
    if (market === undefined || journaled === undefined) continue;
    if (market.id === journaled.marketId) taken.push({ marketId: market.id, slug, previous: journaled.slug });
    else if (!quoted.has(journaled.marketId))
      reused.push({ configured: slug, marketId: market.id, left: journaled.marketId, slug: journaled.slug });
  }
  return { reused, taken };
}

/**
 * markets.tickSizes and markets.minOrderSizes with each entry of a slug the journal found renamed
 * also under the market's slug now, unless engine.markets names that slug too (its own settings, or
 * the defaults, are then the market's: the operator half way through the update the start's warning
 * asks for) or one is set there: the market keeps the tick and minimum size configured for it.
 */
export function paramsUnderNewSlugs(
  cfg: MmConfig["markets"],
  moved: readonly RenamedAtStart[],
  configured: readonly string[],
): MmConfig["markets"] {
  const carried = moved.filter((m) => !configured.includes(m.slug));
  if (carried.length === 0) return cfg;
  const tickSizes = { ...cfg.tickSizes };
  const minOrderSizes = { ...cfg.minOrderSizes };
  for (const { configured: from, slug } of carried) {
    if (Object.hasOwn(tickSizes, from) && !Object.hasOwn(tickSizes, slug))
      tickSizes[slug] = tickSizes[from] as string;
    if (Object.hasOwn(minOrderSizes, from) && !Object.hasOwn(minOrderSizes, slug))
      minOrderSizes[slug] = minOrderSizes[from] as string;
  }
  return { ...cfg, tickSizes, minOrderSizes };
}
