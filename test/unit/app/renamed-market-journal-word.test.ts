import { describe, expect, it } from "vitest";
import type { SlugLookup } from "../../../src/app/journaled-slugs.js";
import { selectMarkets } from "../../../src/app/markets.js";
import { marketsAtStart } from "../../../src/app/start-markets.js";
import { loadConfig } from "../../../src/config/load.js";
import type { Market } from "../../../src/exchange/types.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";
import { marketsClient } from "./markets-client.js";

/*
 * What the journal says of the configured slugs the exchange knows, and of the slug a market found
 * through it has now: a slug another market took since the market an earlier run traded under it
 * left it is quoted as configured, warned of naming both markets (the market traded before drops
 * out of the run, its position with it); a slug the journal does not know a selected market has
 * (retitled again, or back, while mm was down) is the run's to journal (slugsTaken).
 */

const OLD = "brazil-vs-france-brazil-wins";
const MID = "brazil-beat-france";
const NEW = "brazil-beat-france-in-paris";
const TRADED = sampleMarket({ slug: NEW }) as unknown as Market;
const OTHER = sampleMarket({
  id: "6f1c1a52-9999-4c53-9d59-0e3e8b6b2a01",
  slug: OLD,
  conditionId: `0x${"ef".repeat(32)}`,
  yesTokenId: "11",
  noTokenId: "12",
}) as unknown as Market;

const configOf = (markets: string[]) => loadConfig({ env: { MM_ENGINE_MARKETS: JSON.stringify(markets) } });
/** The journal: TRADED left OLD, and took `now` last. */
const journalAt =
  (now: string): SlugLookup =>
  (slug) =>
    slug === OLD ? { marketId: TRADED.id, slug: now } : undefined;

describe("the journal's word on the configured slugs the exchange knows", () => {
  it("a slug another market took since: quoted as configured, warned naming both markets", async () => {
    const client = marketsClient([OTHER, TRADED]);
    const q = await selectMarkets(client, configOf([OLD]), journalAt(NEW));
    expect(q.tokens.map((t) => t.marketId)).toEqual([OTHER.id, OTHER.id]);
    expect(q.reused).toEqual([{ configured: OLD, marketId: OTHER.id, left: TRADED.id, slug: NEW }]);

    const log = collectingStream();
    const logger = createLogger({ level: "info", pretty: false, destination: log });
    await marketsAtStart(client, configOf([OLD]), logger, undefined, () => client, journalAt(NEW));
    const warned = log.records().filter((r) => r.level === 40);
    expect(warned).toHaveLength(1);
    expect(String(warned[0]?.msg)).toContain(OTHER.id);
    expect(String(warned[0]?.msg)).toContain(TRADED.id);
    expect(String(warned[0]?.msg)).toContain(`name "${NEW}" in engine.markets`);
  });

  it("…not warned when the config names the traded market's slug now too (it is quoted)", async () => {
    const q = await selectMarkets(marketsClient([OTHER, TRADED]), configOf([OLD, NEW]), journalAt(NEW));
    expect(q.reused).toEqual([]);
    expect(new Set(q.tokens.map((t) => t.marketId))).toEqual(new Set([OTHER.id, TRADED.id]));
  });

  it("a market back under the slug it left: that slug journaled (the journal says it took another)", async () => {
    const back = { ...TRADED, slug: OLD };
    const q = await selectMarkets(marketsClient([back]), configOf([OLD]), journalAt(NEW));
    expect(q.reused).toEqual([]);
    expect(q.slugsTaken).toEqual([{ marketId: TRADED.id, slug: OLD, previous: NEW }]);
  });
});

describe("a market found through the journal under a slug the journal does not know", () => {
  it("its slug now is the run's to journal, the journaled one its previous", async () => {
    const q = await selectMarkets(marketsClient([TRADED]), configOf([OLD]), journalAt(MID));
    expect(q.renamed).toEqual([{ configured: OLD, slug: NEW, marketId: TRADED.id }]);
    expect(q.slugsTaken).toEqual([{ marketId: TRADED.id, slug: NEW, previous: MID }]);
  });

  it("under the journaled slug: nothing to journal", async () => {
    const q = await selectMarkets(marketsClient([TRADED]), configOf([OLD]), journalAt(NEW));
    expect(q.slugsTaken).toEqual([]);
  });

  it("the config naming both slugs, the new one without a tick of its own: the default, not the old one's", async () => {
    const config = loadConfig({
      env: {
        MM_ENGINE_MARKETS: JSON.stringify([OLD, NEW]),
        MM_MARKETS_TICK_SIZES: JSON.stringify({ [OLD]: "0.001" }),
      },
    });
    const q = await selectMarkets(marketsClient([TRADED]), config, journalAt(NEW));
    expect(q.tokens.map((t) => t.tickMicro)).toEqual([10_000, 10_000]); // the default tick, 0.01
  });
});
