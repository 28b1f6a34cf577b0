import { describe, expect, it } from "vitest";
import { DaemonReporter } from "../../../src/app/daemon-log.js";
import { selectMarkets } from "../../../src/app/markets.js";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/load.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import type { Market } from "../../../src/exchange/types.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";

/*
 * The spec (Market): conditionId is "null until deployment confirmed", while noTokenId is "Null for
 * non-binary markets". A named market with its conditionId and YES token but no NO token is deployed:
 * it is not binary, and will never be quoted. The refusal and the warning must say so, not that it
 * is "not deployed on chain yet" and to "restart mm once it is": a wait that would never end.
 */

const NON_BINARY = sampleMarket({
  id: "6f1c1a52-7777-4c53-9d59-0e3e8b6b2a01",
  slug: "who-wins-the-cup",
  symbol: "CUP",
  outcomeCount: 3,
  outcomeLabels: ["BRA", "FRA", "ARG"],
  noTokenId: null,
}) as unknown as Market;

function fakeClient(markets: Market[]): ExchangeHttpClient {
  return {
    markets: {
      list: async () => markets,
      get: async (slug: string) => {
        const m = markets.find((x) => x.slug === slug);
        if (m === undefined) throw new Error(`no ${slug}`);
        return m;
      },
    },
  } as unknown as ExchangeHttpClient;
}

describe("a named non-binary market (noTokenId null, conditionId set)", () => {
  it("the 'nothing to quote' refusal does not call a deployed market 'not deployed on chain yet'", async () => {
    const config = loadConfig({ env: { MM_ENGINE_MARKETS: JSON.stringify([NON_BINARY.slug]) } });
    const err = await selectMarkets(fakeClient([NON_BINARY]), config).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const line = (err as ConfigError).lines().join("\n");
    expect(line).toContain("nothing to quote");
    expect(line).not.toContain("not deployed on chain yet");
    expect(line).toMatch(/binary/);
  });

  it("the 'market not quoted' warning does not tell the operator to restart once it is deployed", () => {
    const sink = collectingStream();
    const logger = createLogger({ level: "info", destination: sink, pretty: false });
    const config = loadConfig({ env: { MM_ENGINE_MARKETS: JSON.stringify([NON_BINARY.slug]) } });
    const reporter = new DaemonReporter(
      logger,
      {
        tokens: [],
        slugs: [],
        unquotable: [{ market: NON_BINARY, why: "not_binary" }],
        strategyFor: () => undefined,
        marketOfCondition: () => undefined,
        slugOf: () => undefined,
      },
      { now: () => 0, setTimer: () => 0, cancelTimer: () => undefined } as never,
    );
    reporter.announce(config, "s1", "0x0000000000000000000000000000000000000001");
    const warn = sink.records().find((r) => String(r.msg).startsWith("market not quoted"));
    expect(warn).toBeDefined();
    expect(String(warn?.msg)).not.toContain("not deployed on chain yet");
    expect(String(warn?.msg)).not.toContain("restart mm once it is");
  });
});
