import { describe, expect, it } from "vitest";
import { startDaemon } from "../../../src/app/daemon.js";
import { ConfigError } from "../../../src/config/errors.js";
import type { MockExchange } from "../../../src/mock/mock-exchange.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";
import { sendJson } from "../../support/http-test-server.js";
import { FRONTED, frontedMocks } from "./rest-front.js";
import { daemonConfig, logged, memoryLogger, startFailure } from "./support.js";

/*
 * engine.markets names a market the exchange lists without its condition or token ids (not yet
 * deployed on chain): the engine cannot quote it. Such a market used to be dropped without a word —
 * its slug only missing from the "quoting N market(s)" line, and with every named market like it
 * the daemon ran quoting nothing.
 */

const ARG = FRONTED;
const UNDEPLOYED = sampleMarket({
  id: "6f1c1a52-9999-4c53-9d59-0e3e8b6b2a01",
  slug: "not-deployed-yet",
  symbol: "NDY",
  conditionId: null,
  yesTokenId: null,
  noTokenId: null,
});

const fronted = frontedMocks();

/** The mock behind a REST front whose market list also holds the undeployed market. */
async function exchangeWithUndeployed(): Promise<{ m: MockExchange; url: string }> {
  let listed: unknown[] = [];
  const { m, url } = await fronted((req, res) => {
    if (req.path === "/api/markets") {
      sendJson(res, 200, [...listed, UNDEPLOYED]);
      return true;
    }
    if (req.path === "/api/markets/not-deployed-yet") {
      sendJson(res, 200, UNDEPLOYED);
      return true;
    }
    return false;
  });
  const body = (await (await fetch(`${m.httpUrl}/api/markets?limit=500`)).json()) as { markets: unknown[] };
  listed = body.markets;
  return { m, url };
}

describe("daemon: engine.markets names a market without token ids", () => {
  it("quotes the others and warns once naming the market it cannot quote", async () => {
    const { m, url } = await exchangeWithUndeployed();
    const { logger, sink } = memoryLogger();
    const daemon = await startDaemon(
      daemonConfig(m, [ARG.slug, "not-deployed-yet"], { MM_EXCHANGE_BASE_URL: url }),
      { logger },
    );
    try {
      expect(daemon.markets.slugs).toEqual([ARG.slug]);
      await logged(sink, "market not quoted");
      const warns = sink.records().filter((r) => String(r.msg).startsWith("market not quoted"));
      expect(warns).toHaveLength(1);
      expect(warns[0]).toMatchObject({ level: 40, slug: "not-deployed-yet", marketId: UNDEPLOYED.id });
      expect(String(warns[0]?.msg)).toContain("without its condition or token ids");
    } finally {
      await daemon.stop("test over");
    }
  });

  it("with no market it can quote, the start is refused naming engine.markets (exit 2), not a daemon quoting nothing", async () => {
    const { m, url } = await exchangeWithUndeployed();
    const err = await startFailure(daemonConfig(m, ["not-deployed-yet"], { MM_EXCHANGE_BASE_URL: url }));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).lines()).toEqual([
      'engine.markets: nothing to quote: "not-deployed-yet" is listed without its condition or token ids ' +
        "(not deployed on chain yet; the list is read at start only, so restart mm once it is)",
    ]);
  });
});
