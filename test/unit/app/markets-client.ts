import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { Market } from "../../../src/exchange/types.js";

/**
 * The exchange's market reads, for the start's selection (selectMarkets): lists `listed`;
 * GET /api/markets/{slug} finds `byRecord` by slug (a fresh object per read, as a real HTTP client
 * answers), else refuses `market_not_found` (a 404), as the exchange does for a slug a market left.
 */
export function marketsClient(listed: Market[], byRecord: Market[] = listed): ExchangeHttpClient {
  return {
    markets: {
      list: async () => listed,
      get: async (slug: string) => {
        const m = byRecord.find((x) => x.slug === slug);
        if (m !== undefined) return { ...m };
        throw new ExchangeError({
          code: "market_not_found",
          message: "no market",
          outcome: "rejected",
          endpoint: "GET /api/markets/{slug}",
          httpStatus: 404,
          path: `/api/markets/${slug}`,
        });
      },
    },
  } as unknown as ExchangeHttpClient;
}
