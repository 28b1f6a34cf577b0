import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MmError } from "../../src/core/errors.js";
import { SimClock } from "../../src/core/sim-clock.js";
import type { Address, Hex } from "../../src/core/types.js";
import { ExchangeHttpClient } from "../../src/exchange/client.js";
import { ExchangeError } from "../../src/exchange/exchange-error.js";
import {
  sampleMarket,
  sampleOrder,
  sampleTrade,
  sampleWithdrawal,
  silentLogger,
  TEST_API_KEY,
} from "../support/exchange-fixtures.js";
import { mutateAll, mutateTextAll, mutationsArb, textMutationsArb } from "./mutate.js";
import { fuzzAsync, printTally, timeoutFor } from "./runs.js";

/*
 * The HTTP client end to end over a real socket on 127.0.0.1: a server answers each call with a
 * fuzzed status, fuzzed headers (rate-limit, Retry-After, X-Server-Time, ids, content type) and a
 * fuzzed body (the endpoint's valid body, mutated in tree and text, error envelopes, garbage).
 * Every call resolves with its typed value on a 2xx it can read, or rejects with an
 * ExchangeError carrying a code, the HTTP status and the X-Request-Id; placement never throws and
 * answers accepted only for a 2xx placement it can read. The valid body on a 2xx always parses.
 */

const started = performance.now();
const WEIGHT = 0.1;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
let answer: Answer = { status: 200, headers: {}, body: "{}" };
let server: Server;
let client: ExchangeHttpClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = new ExchangeHttpClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: TEST_API_KEY,
    clock: new SimClock(1_767_225_600_000),
    logger: silentLogger(),
    retry: { maxAttempts: 1 },
    breaker: { minRequests: Number.MAX_SAFE_INTEGER },
    random: () => 0.5,
  });
});

afterAll(async () => {
  client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  printTally("exchange-http", started);
});

const PLACE = {
  marketId: "m-1",
  side: "buy",
  outcome: "YES",
  price: "0.5",
  quantity: "10",
  nonce: "1",
  expiry: 0,
  maker: `0x${"11".repeat(20)}` as Address,
  signature: `0x${"ab".repeat(65)}` as Hex,
  clientOrderId: "mm-fuzz-1",
} as const;

/** Each endpoint: the call and a valid body for it. */
const CALLS: readonly { name: string; call: (c: ExchangeHttpClient) => Promise<unknown>; valid: unknown }[] =
  [
    { name: "markets.get", call: (c) => c.markets.get("brazil"), valid: sampleMarket() },
    { name: "markets.list", call: (c) => c.markets.list(), valid: { markets: [sampleMarket()] } },
    {
      name: "markets.orderbook",
      call: (c) => c.markets.orderbook("BRA"),
      valid: { bids: [{ price: "0.5", size: "1" }], asks: [] },
    },
    { name: "orders.open", call: (c) => c.orders.open(), valid: [sampleOrder()] },
    { name: "orders.get", call: (c) => c.orders.get("ord-1"), valid: sampleOrder() },
    {
      name: "orders.cancel",
      call: (c) => c.orders.cancel("ord-1"),
      valid: { orderId: "ord-1", status: "CANCELLED" },
    },
    {
      name: "orders.cancelAll",
      call: (c) => c.orders.cancelAll("m-1"),
      valid: { cancelled: 2, marketId: "m-1" },
    },
    {
      name: "orders.history",
      call: (c) => c.orders.history(),
      valid: { walletAddress: `0x${"11".repeat(20)}`, orders: [sampleOrder()], nextCursor: null },
    },
    { name: "me.balances", call: (c) => c.me.balances(), valid: { available: "10", locked: "1" } },
    { name: "me.positions", call: (c) => c.me.positions(), valid: [{ tokenId: "1", quantity: "3" }] },
    { name: "me.trades", call: (c) => c.me.trades(), valid: { trades: [sampleTrade()], nextCursor: null } },
    { name: "platform.status", call: (c) => c.platform.status(), valid: { frozen: false } },
    { name: "withdrawals.get", call: (c) => c.withdrawals.get("w-1"), valid: sampleWithdrawal() },
  ];
const PLACE_VALID = { orderId: "ord-9", status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] };
const ENVELOPES: unknown[] = [
  {
    orderId: "",
    status: "REJECTED",
    filledQty: "0",
    remainingQty: "0",
    trades: [],
    code: "insufficient_funds",
    message: "no",
  },
  { status: 429, error: { code: "rate_limited", message: "slow down", trace_id: "tr-1" } },
  { code: "order_not_found", message: "none" },
];

const headerValue = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "2.5",
    "-1",
    "",
    " 7 ",
    "1e3",
    "NaN",
    "9".repeat(400),
    "Wed, 21 Oct 2015 07:28:00 GMT",
    "abc",
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
);
const headersArb = fc.record(
  {
    "x-request-id": fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 12,
    }),
    "x-ratelimit-limit": headerValue,
    "x-ratelimit-remaining": headerValue,
    "x-ratelimit-reset": headerValue,
    "retry-after": headerValue,
    "x-server-time": headerValue,
    "x-trace-id": headerValue,
    "content-type": fc.constantFrom("application/json", "text/html", "text/plain; charset=utf-8"),
  },
  { requiredKeys: ["x-request-id"] },
);

const caseArb = fc.record({
  call: fc.integer({ min: 0, max: CALLS.length }), // CALLS.length = place
  status: fc.oneof(
    fc.constantFrom(200, 201, 200, 201, 400, 401, 404, 409, 429, 500, 502, 503, 504),
    fc.integer({ min: 200, max: 599 }),
  ),
  headers: headersArb,
  body: fc.oneof(
    { weight: 2, arbitrary: fc.constant<"valid">("valid") },
    {
      weight: 4,
      arbitrary: fc
        .tuple(mutationsArb, fc.option(textMutationsArb, { freq: 3 }))
        .map(([ms, ts]) => ({ ms, ts })),
    },
    { weight: 2, arbitrary: fc.constantFrom(...ENVELOPES).map((e) => ({ envelope: e })) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      ),
    },
  ),
});

describe("fuzz: the HTTP client against a fuzzing server", () => {
  it(
    "every call resolves with a typed value or rejects with an ExchangeError; placement always answers an outcome",
    async () => {
      await fuzzAsync(
        "exchange http: fuzzed answers over a socket",
        fc.asyncProperty(caseArb, async ({ call, status, headers, body }) => {
          const isPlace = call === CALLS.length;
          const valid = isPlace ? PLACE_VALID : CALLS[call]?.valid;
          const text =
            body === "valid"
              ? JSON.stringify(valid)
              : typeof body === "string"
                ? body
                : "envelope" in body
                  ? JSON.stringify(body.envelope)
                  : mutateTextAll(JSON.stringify(mutateAll(valid, body.ms)) ?? "", body.ts ?? []);
          answer = { status, headers, body: text };
          const ok = status >= 200 && status < 300;
          // 204 and 205 carry no body on the wire: "valid" is only delivered on the others.
          const delivered = body === "valid" && ok && status !== 204 && status !== 205;
          if (isPlace) {
            const out = await client.orders.place({ ...PLACE });
            if (out.kind === "accepted") {
              expect(ok).toBe(true);
              expect(["OPEN", "PARTIAL", "FILLED"]).toContain(out.result.status);
              expect(out.result.orderId).not.toBe("");
              expect(out.requestId).toBe(headers["x-request-id"]);
            } else {
              expect(out.error).toBeInstanceOf(ExchangeError);
              expect(out.error.httpStatus).toBe(status);
              expect(out.error.code).not.toBe("");
            }
            if (delivered) expect(out.kind).toBe("accepted");
            return;
          }
          const spec = CALLS[call] as (typeof CALLS)[number];
          try {
            await spec.call(client);
            expect(ok, `${spec.name} resolved on HTTP ${status}`).toBe(true);
          } catch (err) {
            expect(err, String(err)).toBeInstanceOf(ExchangeError);
            const e = err as ExchangeError;
            expect(e).toBeInstanceOf(MmError);
            expect(e.code).not.toBe("");
            expect(e.httpStatus).toBe(status);
            expect(e.requestId).toBe(headers["x-request-id"]);
            expect(delivered, `${spec.name} refused its valid body: ${e.code} ${e.message}`).toBe(false);
          }
        }),
        WEIGHT,
      );
      expect(client.breaker.snapshot().state).toBe("closed");
    },
    timeoutFor(WEIGHT),
  );
});
