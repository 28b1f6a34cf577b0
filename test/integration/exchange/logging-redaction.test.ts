import { afterEach, describe, expect, it } from "vitest";
import { LiveClock } from "../../../src/core/live-clock.js";
import { ExchangeHttpClient } from "../../../src/exchange/client.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { createLogger, type Logger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import {
  router,
  sampleOrder,
  TEST_API_KEY,
  TEST_KEY_ID,
  TEST_KEY_SECRET,
  TEST_WALLET,
} from "../../support/exchange-fixtures.js";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server.js";
import { placeRequest } from "./helpers.js";

/** Hardhat's well-known account #0 key (public test key), registered as the wallet secret. */
const PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const PK_HEX = PRIVATE_KEY.slice(2);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/**
 * A server whose answers cover every log path of the client: a success, a 503 that is retried, a definite
 * reject, and a 401 whose message (carelessly) echoes the API key back.
 */
async function exchange(): Promise<TestServer> {
  let openCalls = 0;
  const server = await startTestServer(
    router({
      "GET /api/orders/open": (_req, res) => {
        openCalls++;
        if (openCalls === 1) {
          sendJson(
            res,
            503,
            { status: 503, error: { code: "exchange_unavailable", message: "down", trace_id: "tr-503" } },
            {
              "x-request-id": "rq-503-1",
            },
          );
        } else
          sendJson(res, 200, [sampleOrder()], { "x-request-id": "rq-ok-1", "x-api-version": "2026-04-01" });
      },
      "POST /api/orders/cancel": (_req, res) =>
        sendJson(
          res,
          404,
          { code: "order_not_found", message: "no such order" },
          { "x-request-id": "rq-err-1" },
        ),
      "POST /api/orders/place": (req, res) =>
        sendJson(
          res,
          401,
          { code: "api_key_bad_secret", message: `key ${String(req.headers["x-api-key"])} rejected` },
          { "x-request-id": "rq-401-1" },
        ),
    }),
  );
  cleanups.push(() => server.close());
  return server;
}

function client(server: TestServer, logger: Logger): ExchangeHttpClient {
  const c = new ExchangeHttpClient({
    baseUrl: server.url,
    apiKey: TEST_API_KEY,
    userWallet: TEST_WALLET,
    clock: new LiveClock(),
    logger,
    timeoutMs: 5_000,
    random: () => 0,
  });
  cleanups.push(() => c.close());
  return c;
}

/** Drives a success (after one retry), a reject whose error is logged, and a 401 echoing the key. */
async function drive(c: ExchangeHttpClient, logger: Logger): Promise<void> {
  expect(await c.orders.open()).toHaveLength(1);
  try {
    await c.orders.cancel("ord-404");
  } catch (err) {
    logger.error({ err }, "cancel failed");
  }
  const out = await c.orders.place(placeRequest());
  expect(out.kind).toBe("rejected");
  if (out.kind === "rejected") logger.warn({ err: out.error, outcome: out }, "placement rejected");
}

function assertNoSecrets(text: string): void {
  expect(text).not.toContain(TEST_API_KEY);
  expect(text).not.toContain(TEST_KEY_SECRET);
  // The private key with or without 0x, in any letter case.
  expect(text.toLowerCase()).not.toContain(PK_HEX);
}

describe("logging at debug never shows the API key or the private key", () => {
  it("the client itself never logs the key, even with no scrubbing configured", async () => {
    const server = await exchange();
    const sink = collectingStream();
    const logger = createLogger({ level: "debug", pretty: false, destination: sink });
    const c = client(server, logger);
    expect(await c.orders.open()).toHaveLength(1);
    await c.orders.cancel("x").catch((err: unknown) => logger.error({ err }, "cancel failed"));
    assertNoSecrets(sink.text());
    // Every request was logged, with the safe keyId and the X-Request-Id.
    const responses = sink.records().filter((r) => r.msg === "exchange http response");
    expect(responses.map((r) => [r.method, r.path, r.status, r.requestId])).toEqual([
      ["GET", "/api/orders/open", 503, "rq-503-1"],
      ["GET", "/api/orders/open", 200, "rq-ok-1"],
      ["POST", "/api/orders/cancel", 404, "rq-err-1"],
    ]);
    expect(responses.every((r) => r.keyId === TEST_KEY_ID && typeof r.durationMs === "number")).toBe(true);
    expect(server.requests.every((r) => r.headers["x-api-key"] === TEST_API_KEY)).toBe(true);
  });

  it("with the secrets registered, nothing leaks: logged errors, careless objects, headers, messages", async () => {
    const server = await exchange();
    const sink = collectingStream();
    const logger = createLogger({
      level: "debug",
      pretty: false,
      destination: sink,
      secrets: [TEST_API_KEY, TEST_KEY_SECRET, PRIVATE_KEY],
    });
    const c = client(server, logger);
    await drive(c, logger);

    // Careless lines a future change might add.
    logger.info(
      {
        apiKey: TEST_API_KEY,
        privateKey: PRIVATE_KEY,
        headers: { "x-api-key": TEST_API_KEY, "X-Api-Key": TEST_API_KEY },
        config: { exchange: { apiKey: TEST_API_KEY }, wallet: { privateKey: PK_HEX.toUpperCase() } },
        request: { headers: { "x-api-key": TEST_API_KEY } },
        note: `secret is ${TEST_KEY_SECRET}`,
      },
      `connecting with ${TEST_API_KEY} as ${PRIVATE_KEY.toUpperCase().replace("0X", "0x")}`,
    );
    logger.debug(`raw key ${PK_HEX.toUpperCase()} and ${PRIVATE_KEY}`);
    logger.error(
      {
        err: new ExchangeError({
          code: "x",
          message: `boom ${TEST_API_KEY}`,
          outcome: "rejected",
          endpoint: "GET /x",
        }),
      },
      "e",
    );

    const text = sink.text();
    assertNoSecrets(text);
    expect(text).toContain("[REDACTED]");
    // The safe parts are still there: the keyId and every X-Request-Id, on the debug lines and errors.
    expect(text).toContain(TEST_KEY_ID);
    for (const id of ["rq-503-1", "rq-ok-1", "rq-err-1", "rq-401-1"]) expect(text).toContain(id);
    const records = sink.records();
    const retry = records.find((r) => r.msg === "exchange http retry");
    expect(retry).toMatchObject({ requestId: "rq-503-1", code: "exchange_unavailable", keyId: TEST_KEY_ID });
    const logged = records.find((r) => r.msg === "cancel failed");
    expect(logged?.err).toMatchObject({ code: "order_not_found", requestId: "rq-err-1" });
    const placement = records.find((r) => r.msg === "placement rejected");
    expect(JSON.stringify(placement)).toContain("api_key_bad_secret");
  });
});
