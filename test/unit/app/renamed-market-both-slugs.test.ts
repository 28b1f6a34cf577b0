import { describe, expect, it } from "vitest";
import type { SlugLookup } from "../../../src/app/journaled-slugs.js";
import { selectMarkets } from "../../../src/app/markets.js";
import { loadConfig } from "../../../src/config/load.js";
import type { Market } from "../../../src/exchange/types.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";
import { marketsClient } from "./markets-client.js";

/*
 * Review r21 (rslug) of 673e629: an operator half way through the update the start's warning asks
 * for ("update engine.markets … to <new>") names both the old slug (a 404) and the new one, with the
 * new one's own settings. The journal maps the old slug to the market now under the new one.
 */

const OLD = "brazil-vs-france-brazil-wins";
const NEW = "brazil-beats-france";
const MARKET = sampleMarket({ slug: NEW }) as unknown as Market;
const ID = MARKET.id;

const journal: SlugLookup = (slug) => (slug === OLD ? { marketId: ID, slug: NEW } : undefined);

describe("engine.markets naming both the slug a market left and the one it took", () => {
  it("the market past the list's cap: its two tokens selected once, not twice", async () => {
    const config = loadConfig({ env: { MM_ENGINE_MARKETS: JSON.stringify([OLD, NEW]) } });
    const q = await selectMarkets(marketsClient([], [MARKET]), config, journal);
    // Found by the journaled slug for OLD, and by its record for NEW: pushed twice, 4 tokens (the
    // same token ids twice in the engine's markets).
    expect(q.tokens.map((t) => t.tokenId)).toEqual([MARKET.yesTokenId, MARKET.noTokenId]);
  });

  it("the strategy the config gives the new slug is the market's, not the old slug's (nor the default)", async () => {
    const config = loadConfig({
      env: {
        MM_ENGINE_MARKETS: JSON.stringify([OLD, NEW]),
        MM_ENGINE_STRATEGY_BY_MARKET: JSON.stringify({
          [NEW]: { name: "avellaneda-stoikov", params: { gamma: 1, k: 10, orderSize: "20" } },
        }),
      },
    });
    expect(config.engine.strategy.name).not.toBe("avellaneda-stoikov");
    const q = await selectMarkets(marketsClient([MARKET]), config, journal);
    // configuredSlug(NEW) maps back to OLD, which has no entry: the default strategy is used.
    expect(q.strategyFor(q.tokens[0] as never)?.name).toBe("avellaneda-stoikov");
  });
});
