import type { ExchangeHttpClient } from "../exchange/client.js";
import type { StatusSource } from "../gateway/record/status-reads.js";

/** The most markets one GET /api/markets asks for (as selectMarkets: the spec shows no paging). */
const LIST_LIMIT = 500;

/**
 * `mm record`'s status reads over the exchange's public REST reads: a market's record by GET
 * /api/markets/{slug} (what mm run's record reads use), its slug found once in GET /api/markets by
 * its conditionId (mm record is given token ids only); the platform's by GET /api/platform/status.
 * A market the list does not show cannot be read: that read fails (and is tried again, list
 * included, at the next resubscribe).
 * @example const source = restStatusSource(exchangeClient(config, clock, logger));
 */
export function restStatusSource(client: ExchangeHttpClient): StatusSource {
  const slugs = new Map<string, string>();
  let listing: Promise<void> | undefined;
  const learnSlugs = (): Promise<void> => {
    // The markets of one resubscribe share one list read.
    listing ??= client.markets
      .list({ limit: LIST_LIMIT })
      .then((markets) => {
        for (const m of markets) if (m.conditionId !== null) slugs.set(m.conditionId.toLowerCase(), m.slug);
      })
      .finally(() => {
        listing = undefined;
      });
    return listing;
  };
  return {
    async market(conditionId) {
      if (!slugs.has(conditionId)) await learnSlugs();
      const slug = slugs.get(conditionId);
      if (slug === undefined) throw new Error(`GET /api/markets lists no market of condition ${conditionId}`);
      const record = await client.markets.get(slug);
      if (record.conditionId?.toLowerCase() !== conditionId) {
        // A slug reused by another market since it was learned: learn it again next time.
        slugs.delete(conditionId);
        throw new Error(`GET /api/markets/${slug} answered another market (${record.conditionId})`);
      }
      return { status: record.status, via: `GET /api/markets/${slug}` };
    },
    async platform() {
      return { data: { ...(await client.platform.status()) }, via: "GET /api/platform/status" };
    },
  };
}
