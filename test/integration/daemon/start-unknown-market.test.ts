import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/errors.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer } from "../../support/http-test-server.js";
import { serverSlots } from "./rest-front.js";
import { daemonConfig, market, startFailure, startMock } from "./support.js";

/*
 * engine.markets names a slug the exchange does not list: a config error (exit 2) that names the
 * field, and the exchange it asked (exchange.baseUrl and the URL read), so that a slug refused by the
 * wrong exchange (a test venue, a stale setting) is told from a typo.
 */

const ARG = market("arg-vs-fra-final-arg-win");

const slots = serverSlots();

describe("daemon: engine.markets names a slug the exchange does not list", () => {
  it("the config error names engine.markets, exchange.baseUrl and the URL read", async () => {
    const m = await startMock();
    slots.mock = m;
    const err = await startFailure(daemonConfig(m, [ARG.slug, "no-such-market"]));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).lines()).toEqual([
      `engine.markets: the exchange has no market "no-such-market" (exchange.baseUrl ${m.httpUrl}: ` +
        `GET ${m.httpUrl}/api/markets/no-such-market answered 404; check the slug with GET /api/markets)`,
    ]);
  });

  it("a lookup answered with a market of another slug: that answer is named instead of a 404", async () => {
    const m = await startMock();
    slots.mock = m;
    const srv = await startTestServer((req, res) =>
      req.path === "/api/markets"
        ? sendJson(res, 200, [])
        : sendJson(res, 200, sampleMarket({ slug: "brazil-vs-france-brazil-wins" })),
    );
    slots.server = srv;
    const err = await startFailure(daemonConfig(m, ["no-such-market"], { MM_EXCHANGE_BASE_URL: srv.url }));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).lines()).toEqual([
      `engine.markets: the exchange has no market "no-such-market" (exchange.baseUrl ${srv.url}: ` +
        `GET ${srv.url}/api/markets/no-such-market answered a market of another slug; check the slug with GET /api/markets)`,
    ]);
  });
});
