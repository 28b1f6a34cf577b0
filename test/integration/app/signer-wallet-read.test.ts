import { afterEach, describe, expect, it } from "vitest";
import { checkSignerWallet } from "../../../src/app/signer-wallet.js";
import { loadConfig } from "../../../src/config/load.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { silentLogger } from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { API_KEY, PRIVATE_KEY } from "../daemon/support.js";

/*
 * The start's wallet check (GET /api/me/withdrawals) is a courtesy: a read it cannot make is only
 * warned of. Through the client's default retries a 429 with a long Retry-After was waited out as
 * sent, twice (3 attempts), and a hung read took 3 request timeouts: the start held for nothing.
 * It is now one attempt, with a short timeout of its own.
 */

const CONFIG = loadConfig({
  env: {
    MM_API_KEY: API_KEY,
    MM_PRIVATE_KEY: PRIVATE_KEY,
    MM_ENGINE_MARKETS: JSON.stringify(["some-market"]),
  },
});

let server: TestServer | undefined;
let client: ExchangeHttpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A client as the daemon makes it: the client's default retry policy (3 attempts, Retry-After up to 60 s). */
function clientOf(s: TestServer): ExchangeHttpClient {
  return new ExchangeHttpClient({
    baseUrl: s.url,
    apiKey: API_KEY,
    clock: new LiveClock(),
    logger: silentLogger(),
    timeoutMs: 10_000,
  });
}

describe("the start's wallet read: one attempt, a short bound", () => {
  it("a 429 with Retry-After: 30 is not waited out: one request, unread at once", async () => {
    const s = await startTestServer((_req, res) =>
      sendJson(res, 429, { error: { code: "rate_limited", message: "slow down" } }, { "retry-after": "30" }),
    );
    server = s;
    client = clientOf(s);
    const began = performance.now();
    const verdict = await checkSignerWallet(client.withdrawals, CONFIG);
    expect(verdict).toMatchObject({ kind: "unread", code: "rate_limited" });
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(s.requests.map((r) => r.path)).toEqual(["/api/me/withdrawals"]);
  }, 10_000);

  it("the per-call timeout reaches the request: an unanswered read ends at it, not at the client's", async () => {
    const s = await startTestServer(() => undefined);
    server = s;
    client = clientOf(s);
    const began = performance.now();
    const err = await client.withdrawals.list({ limit: 1 }, { maxAttempts: 1, timeoutMs: 200 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "request_timeout" });
    expect(performance.now() - began).toBeLessThan(3_000);
    expect(s.requests).toHaveLength(1);
  }, 15_000);
});
