import { describe, expect, it } from "vitest";
import type { SlugLookup } from "../../../src/app/journaled-slugs.js";
import { selectMarkets } from "../../../src/app/markets.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import type { Market } from "../../../src/exchange/types.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";
import { marketsClient } from "./markets-client.js";

/*
 * A market retitled while mm traded it took its new slug (the open-market sweep), and the journal
 * kept it; engine.markets still names the old slug, a 404 now. The start's selection finds the market
 * through the journal's word (SlugLookup): quoted under its slug now, with the settings the config
 * gives the slug it names. Without the journal's word it stays a config error (exit 2).
 */

const OLD = "brazil-vs-france-brazil-wins";
const NEW = "brazil-beats-france";
const MARKET = sampleMarket({ slug: NEW }) as unknown as Market;
const ID = MARKET.id;

const config = loadConfig({
  env: {
    MM_ENGINE_MARKETS: JSON.stringify([OLD]),
    MM_MARKETS_TICK_SIZES: JSON.stringify({ [OLD]: "0.001" }),
    MM_MARKETS_MIN_ORDER_SIZES: JSON.stringify({ [OLD]: "7" }),
    MM_ENGINE_STRATEGY_BY_MARKET: JSON.stringify({
      [OLD]: { name: "avellaneda-stoikov", params: { gamma: 1, k: 10, orderSize: "20" } },
    }),
  },
});

const journal: SlugLookup = (slug) => (slug === OLD ? { marketId: ID, slug: NEW } : undefined);

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("a configured slug the market has left, the journal knowing its new one", () => {
  it("without the journal's word: a config error naming the slug (exit 2), as before", async () => {
    const err = await failure(selectMarkets(marketsClient([MARKET]), config));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).lines().join("\n")).toContain(`no market "${OLD}"`);
  });

  it("is quoted under its slug now, with the tick, minimum size and strategy configured for the old one", async () => {
    const q = await selectMarkets(marketsClient([MARKET]), config, journal);
    expect(q.renamed).toEqual([{ configured: OLD, slug: NEW, marketId: ID }]);
    expect(q.tokens.map((t) => [t.slug, t.tickMicro, t.minSizeMicro])).toEqual([
      [NEW, 1_000, 7_000_000n],
      [NEW, 1_000, 7_000_000n],
    ]);
    expect(q.slugOf(ID)).toBe(NEW);
    expect(q.slugs).toEqual([NEW]);
    expect(q.strategyFor(q.tokens[0] as never)?.name).toBe("avellaneda-stoikov");
  });

  it("not in the list (past its cap): found by the journaled slug, when that record is the market's", async () => {
    const q = await selectMarkets(marketsClient([], [MARKET]), config, journal);
    expect(q.tokens.map((t) => t.marketId)).toEqual([ID, ID]);
    // The journaled slug now another market's: not it, the config error stands.
    const other = sampleMarket({
      id: "6f1c1a52-9999-4c53-9d59-0e3e8b6b2a01",
      slug: NEW,
    }) as unknown as Market;
    expect(await failure(selectMarkets(marketsClient([], [other]), config, journal))).toBeInstanceOf(
      ConfigError,
    );
  });

  it("a config naming the new slug: selected as usual, nothing renamed (the journal asked of it only for a reused slug)", async () => {
    const asked: string[] = [];
    const q = await selectMarkets(
      marketsClient([MARKET]),
      loadConfig({ env: { MM_ENGINE_MARKETS: JSON.stringify([NEW]) } }),
      (slug) => {
        asked.push(slug);
        return journal(slug);
      },
    );
    expect(q.tokens.map((t) => t.slug)).toEqual([NEW, NEW]);
    expect(q.renamed).toEqual([]);
    expect(asked).toEqual([NEW]);
    expect(q.reused).toEqual([]);
    expect(q.slugsTaken).toEqual([]);
  });
});
