import { afterEach, describe, expect, it } from "vitest";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import { isNotFound, OtherMarketRecord } from "../../../src/engine/read-failures.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor } from "../exchange/helpers.js";

/*
 * A market's record is read by its slug (GET /api/markets/{slug}), and the spec derives slugs from
 * titles, saying only that they are unique. A slug the market left (back under a new one) may name
 * another market later: its record was taken as the market's, its status taken for it, and a
 * resolution settled at the other market's payouts (a record found again wins over the list for a
 * market held NOT_FOUND). A record whose id is not the market's is now not this market's: taken as
 * not found, as the 404 the slug would otherwise answer.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("HttpExchange.marketRecord and the record's id", () => {
  it("takes a record at the slug that is another market's as not found", async () => {
    const other = sampleMarket({ id: "m-other", slug: "reused", status: "RESOLVED" });
    server = await startTestServer((_req, res) => sendJson(res, 200, other));
    const exchange = new HttpExchange(clientFor(server));
    const err = await exchange.marketRecord({ marketId: "m1", slug: "reused" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OtherMarketRecord);
    expect(err).toMatchObject({ marketId: "m1", slug: "reused", foundId: "m-other" });
    expect(isNotFound(err)).toBe(true);
  });

  it("reads the market's own record", async () => {
    const own = sampleMarket({ id: "m1", slug: "mine", status: "PAUSED" });
    server = await startTestServer((_req, res) => sendJson(res, 200, own));
    const exchange = new HttpExchange(clientFor(server));
    await expect(exchange.marketRecord({ marketId: "m1", slug: "mine" })).resolves.toMatchObject({
      status: "PAUSED",
    });
  });
});
