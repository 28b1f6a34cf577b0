import { afterEach, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { clientFor } from "../exchange/helpers.js";

/*
 * The open-market sweep's reads over real HTTP (127.0.0.1). They are best-effort, made again next
 * period: one attempt each, so a failing public market service costs the circuit breaker the
 * cancels share one failure per read rather than three (the client's retries). And one malformed
 * record (a new DRAFT market's, say) must not fail the whole list: the sweep would then read no
 * status at all, for as long as that record stays in the list.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An exchange over a client that retries GETs 3 times (the default), quickly. */
async function over(handler: Parameters<typeof startTestServer>[0]): Promise<HttpExchange> {
  server = await startTestServer(handler);
  return new HttpExchange(clientFor(server, { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 } }));
}

const unavailable = { error: { code: "exchange_unavailable", message: "down" } };

describe("HttpExchange.listedMarkets and marketRecord, as the open-market sweep reads them", () => {
  it("skips a record of the list that does not read, returning the others' statuses", async () => {
    const good = sampleMarket({ id: "m-good", slug: "good", status: "PAUSED" });
    const { slug: _noSlug, ...draft } = sampleMarket({ id: "m-draft", status: "DRAFT" });
    const exchange = await over((_req, res) =>
      sendJson(res, 200, { markets: [good, draft, { status: "OPEN" }] }),
    );
    const listed = await exchange.listedMarkets();
    expect(listed).toHaveLength(3);
    // Its slug too: a market held under another one is back under this one (the sweep takes it).
    expect(listed[0]).toEqual({ marketId: "m-good", slug: "good", status: "PAUSED", feeTakerBps: 200 });
    expect(listed[1]).toMatchObject({ marketId: "m-draft", unreadable: expect.stringContaining("slug") });
    expect(listed[2]).toMatchObject({ marketId: undefined, unreadable: expect.any(String) });
  });

  it("still fails a list that is not a list", async () => {
    const exchange = await over((_req, res) => sendJson(res, 200, { markets: "none" }));
    await expect(exchange.listedMarkets()).rejects.toMatchObject({ code: "malformed_response" });
  });

  it("reads the list once, no client-level retry, when it fails", async () => {
    const exchange = await over((_req, res) => sendJson(res, 503, unavailable));
    await expect(exchange.listedMarkets()).rejects.toMatchObject({ httpStatus: 503 });
    expect(server?.requests).toHaveLength(1);
  });

  it("reads a record once when asked (once), with the client's retries otherwise", async () => {
    const exchange = await over((_req, res) => sendJson(res, 503, unavailable));
    const target = { marketId: "m1", slug: "some-market" };
    await expect(exchange.marketRecord(target, { once: true })).rejects.toMatchObject({ httpStatus: 503 });
    expect(server?.requests).toHaveLength(1);
    await expect(exchange.marketRecord(target)).rejects.toMatchObject({ httpStatus: 503 });
    expect(server?.requests).toHaveLength(4);
  });
});

/*
 * Nor is any of them ever the half-open probe of the breaker the orders share (neverProbe): the
 * probe's answer decides for every request, cancels included, and a failing status read taken as
 * the probe re-opened the breaker for another pause. On a keyless client of their own (no order
 * shares its breaker, and only these reads use it) they may probe: its half-open state would
 * otherwise never end.
 */
describe("HttpExchange's market status reads and a half-open breaker", () => {
  /** A client over a failing server whose breaker one failure opens, half-open once its pause ends. */
  async function halfOpen(): Promise<{ client: ExchangeHttpClient; clock: SimClock }> {
    server ??= await startTestServer((_req, res) => sendJson(res, 503, unavailable));
    const clock = new SimClock(0);
    const client = clientFor(server, { clock, breaker: { minRequests: 1, openMs: 1_000 } });
    await client.markets.get("some-market").catch(() => undefined);
    clock.advanceBy(1_000);
    expect(client.breaker.state).toBe("half-open");
    return { client, clock };
  }
  const target = { marketId: "m1", slug: "some-market" };

  it("leave the probe of the orders' breaker alone: refused unsent, still half-open", async () => {
    const { client } = await halfOpen();
    const sent = server?.requests.length;
    const exchange = new HttpExchange(client);
    await expect(exchange.listedMarkets()).rejects.toMatchObject({ code: "circuit_open" });
    const read = { once: true, neverProbe: true };
    await expect(exchange.marketRecord(target, read)).rejects.toMatchObject({ code: "circuit_open" });
    await expect(exchange.marketRecord(target, { neverProbe: true })).rejects.toMatchObject({
      code: "circuit_open",
    });
    expect(server?.requests.length).toBe(sent);
    expect(client.breaker.state).toBe("half-open");
    // A read not so marked (a refusal's) may still probe.
    await expect(exchange.marketRecord(target)).rejects.toMatchObject({ httpStatus: 503 });
    expect(client.breaker.state).toBe("open");
  });

  it("probe a keyless client's breaker of their own", async () => {
    const { client: keyless } = await halfOpen();
    if (server === undefined) throw new Error("no server");
    const orders = clientFor(server);
    const exchange = new HttpExchange(orders, keyless);
    await expect(exchange.listedMarkets()).rejects.toMatchObject({ httpStatus: 503 });
    expect(keyless.breaker.state).toBe("open");
    orders.close();
  });
});
