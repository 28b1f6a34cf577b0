import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Dec } from "../../src/core/decimal.js";
import type { Address, PlaceOrderRequest } from "../../src/core/types.js";
import { MockHarness, WALLET } from "../integration/mock/http/harness.js";
import { mutateAll, mutateTextAll, mutationsArb, nastyValue, textMutationsArb, tryParse } from "./mutate.js";
import { fuzzAsync, printTally, timeoutFor } from "./runs.js";

/*
 * The mock exchange's request parsing over real HTTP on 127.0.0.1 (the routes of src/mock/http
 * that read a JSON body or query parameters): signed placements mutated in tree and text,
 * cancels, cancel-alls, withdrawal requests, paginated reads with fuzzed limits, enums, dates and
 * cursors, and raw garbage. The mock never answers 500 and always answers a JSON body in the
 * spec's envelope for its route with a non-empty code; a placement body that breaks the spec's
 * shape is 400, an unchanged signed body is never refused for its shape or signature, and a
 * mutated one is accepted only when it still means the order that was signed.
 */

const started = performance.now();
const WEIGHT = 0.1;
let h: MockHarness;
let agent: http.Agent;
const PLACEMENTS: PlaceOrderRequest[] = [];
let cursor = "";

beforeAll(async () => {
  h = await MockHarness.start();
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const mm = WALLET.mm as Address;
  PLACEMENTS.push(
    await h.order(mm, "ARG-WIN", { side: "buy", price: "0.05", quantity: "1" }),
    await h.order(mm, "FRA-WIN", { side: "sell", price: "0.97", quantity: "2.5", outcome: "NO" }),
    await h.order(mm, "PENALTIES", {
      side: "buy",
      price: "0.011",
      quantity: "3",
      clientOrderId: "fz-1",
      timeInForce: "gtc",
    }),
    await h.order(mm, "BOOT-MBAPPE", {
      side: "sell",
      price: "0.99",
      quantity: "1",
      type: "limit",
      expiry: 0,
    }),
  );
  for (const p of PLACEMENTS)
    expect((await send("POST", "/api/orders/place", JSON.stringify(p))).status).toBe(201);
  const page = await send("GET", "/api/orders/history?limit=1");
  cursor = (page.json as { nextCursor: string }).nextCursor;
  expect(typeof cursor).toBe("string");
});

afterAll(async () => {
  agent.destroy();
  await h.close();
  printTally("mock-http", started);
});

interface Reply {
  status: number;
  text: string;
  json: unknown;
}

function send(method: string, path: string, body?: string | Uint8Array): Promise<Reply> {
  // Every request starts a fresh rate-limit window: the fuzzer is not what the limiter is about.
  h.clock.advanceBy(61_000);
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const url = new URL(path, h.url);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        agent,
        headers: {
          "x-api-key": h.keys.trader,
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": payload.length }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const parsed = tryParse(text);
          resolve({ status: res.statusCode ?? 0, text, json: parsed.ok ? parsed.value : undefined });
        });
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
    req.on("error", reject);
    req.end(payload);
  });
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The envelope every non-2xx answer of `route` must be in. */
function expectEnvelope(r: Reply, placement: boolean): string {
  expect(r.status, r.text.slice(0, 300)).not.toBe(500);
  expect(r.status).toBeLessThan(500);
  const b = r.json;
  if (!isObj(b)) throw new Error(`not a JSON object: ${r.status} ${r.text.slice(0, 200)}`);
  if (r.status < 300) return "";
  const code = placement ? b.code : r.status === 429 ? (b.error as Record<string, unknown>)?.code : b.code;
  if (placement) expect(b).toMatchObject({ orderId: "", status: "REJECTED" });
  expect(typeof code === "string" && code !== "", r.text.slice(0, 200)).toBe(true);
  return code as string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DEC = /^-?\d+(\.\d+)?$/;

/** Why parsePlacementBody's documented rules refuse a body for certain, or undefined. */
function placementShapeInvalid(b: unknown): string | undefined {
  if (!isObj(b)) return "body";
  const nonEmpty = (k: string) => typeof b[k] !== "string" || b[k] === "";
  const absent = (v: unknown) => v === undefined || v === null;
  if (!["buy", "sell"].includes(b.side as string)) return "side";
  for (const k of ["marketId", "outcome", "signature", "nonce", "maker"]) if (nonEmpty(k)) return k;
  if (!/^\d{1,78}$/.test(b.nonce as string) || BigInt(b.nonce as string) >= 1n << 256n) return "nonce";
  if (typeof b.expiry !== "number" || !Number.isSafeInteger(b.expiry) || b.expiry < 0) return "expiry";
  if (!ADDRESS.test(b.maker as string)) return "maker";
  if (!absent(b.clientOrderId) && (typeof b.clientOrderId !== "string" || b.clientOrderId.length > 128))
    return "clientOrderId";
  for (const k of ["price", "quantity"]) {
    if (typeof b[k] !== "string" || !DEC.test(b[k] as string) || !new Dec(b[k] as string).gt(0)) return k;
  }
  if (!absent(b.type) && !["limit", "market"].includes(b.type as string)) return "type";
  if (!absent(b.timeInForce) && !["gtc", "ioc", "fok"].includes(b.timeInForce as string))
    return "timeInForce";
  for (const [k, max] of [
    ["feeRateBps", 1000],
    ["signatureType", 255],
  ] as const) {
    const v = b[k];
    if (!absent(v) && (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0 || v > max)) return k;
  }
  return undefined;
}

/** What a placement means once read: the fields the signature covers, normalised. */
function meaning(b: Record<string, unknown>): string {
  const outcome = String(b.outcome).trim().toLowerCase();
  return JSON.stringify([
    b.marketId,
    b.side,
    outcome === "0" ? "yes" : outcome === "1" ? "no" : outcome,
    new Dec(b.price as string).toFixed(),
    new Dec(b.quantity as string).toFixed(),
    String(BigInt(b.nonce as string)),
    b.expiry,
    String(b.maker).toLowerCase(),
    b.feeRateBps ?? null,
    b.signatureType ?? 0,
  ]);
}

const PLACEMENT_SHAPE_CODES = new Set(["bad_request", "invalid_amounts", "fee_too_high", "bad_signature"]);

type Case =
  | {
      k: "place";
      i: number;
      ms: Parameters<typeof mutateAll>[1] | null;
      ts: Parameters<typeof mutateTextAll>[1] | null;
    }
  | { k: "raw"; path: string; body: string | Uint8Array }
  | { k: "body"; path: string; value: unknown }
  | { k: "get"; path: string; params: [string, string][] };

const POST_PATHS = [
  "/api/orders/place",
  "/api/orders/cancel",
  "/api/orders/cancel-all",
  "/api/withdrawals/request",
];
const GET_PATHS = [
  "/api/orders/history",
  "/api/me/trades",
  "/api/me/withdrawals",
  "/api/markets",
  "/api/me/fees",
  "/api/events",
  "/api/markets/ARG-WIN/trades",
];
const PARAM_NAMES = ["limit", "cursor", "status", "from", "to", "marketId", "depth", "interval", "offset"];
const paramValue = fc.oneof(
  fc.constantFrom(
    "1",
    "200",
    "0",
    "-1",
    "abc",
    "1e3",
    " 5",
    "99999999999999",
    "OPEN",
    "open",
    "FILLED",
    "",
    "2026-01-01T00:00:00Z",
    "2026-13-45",
    "2026-06-01 12:00",
  ),
  fc.string({ maxLength: 12 }),
  fc.constant("CURSOR"),
  fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 2 })).map(([at, s]) => `CURSOR@${at}@${s}`),
);

const caseArb: fc.Arbitrary<Case> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant("place" as const),
      i: fc.nat(),
      ms: fc.option(mutationsArb, { freq: 6 }),
      ts: fc.option(textMutationsArb, { freq: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("body" as const),
      path: fc.constantFrom(...POST_PATHS.slice(1)),
      value: fc.oneof(
        fc.record({ orderId: fc.oneof(nastyValue, fc.constant("ord-1")) }),
        fc.record({ marketId: fc.oneof(nastyValue, fc.constant("ARG-WIN")) }, { requiredKeys: [] }),
        fc.record({
          amount: fc.oneof(nastyValue, fc.constantFrom("1", "0.5", "0.0000001", "1000000000")),
          destination: fc.oneof(nastyValue, fc.constant(`0x${"44".repeat(20)}`)),
          signature: fc.oneof(nastyValue, fc.constant(`0x${"ab".repeat(65)}`)),
        }),
        nastyValue,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("raw" as const),
      path: fc.constantFrom(...POST_PATHS),
      body: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.constantFrom("", "null", "[]", "{", '{"a":1}x'),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("get" as const),
      path: fc.constantFrom(...GET_PATHS),
      params: fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), paramValue), { maxLength: 4 }),
    }),
  },
);

describe("fuzz: the mock exchange's request parsing", () => {
  it(
    "never 500, always the route's envelope; bad placement shapes are 400; signed bodies mean what was signed",
    async () => {
      await fuzzAsync(
        "mock http: fuzzed requests",
        fc.asyncProperty(caseArb, async (c) => {
          if (c.k === "get") {
            const q = new URLSearchParams(
              c.params.map(([k, v]): [string, string] => {
                if (!v.startsWith("CURSOR")) return [k, v];
                const [, at, s] = v.split("@");
                const i = Number(at ?? 0) % cursor.length;
                return [k, s === undefined ? cursor : cursor.slice(0, i) + s + cursor.slice(i + 1)];
              }),
            );
            const r = await send("GET", `${c.path}?${q}`);
            expectEnvelope(r, false);
            if (r.status >= 300) expect([400, 404]).toContain(r.status);
            return;
          }
          if (c.k === "raw" || c.k === "body") {
            const body = c.k === "raw" ? c.body : (JSON.stringify(c.value) ?? "");
            expectEnvelope(await send("POST", c.path, body), c.path === "/api/orders/place");
            return;
          }
          const original = PLACEMENTS[c.i % PLACEMENTS.length] as PlaceOrderRequest;
          const value = c.ms === null ? original : mutateAll(original, c.ms);
          const text = mutateTextAll(JSON.stringify(value) ?? "", c.ts ?? []);
          const parsed = text.trim() === "" ? undefined : tryParse(text);
          const r = await send("POST", "/api/orders/place", text);
          const code = expectEnvelope(r, true);
          if (parsed === undefined) return;
          if (!parsed.ok) {
            expect([r.status, code]).toEqual([400, "bad_request"]);
            return;
          }
          const invalid = placementShapeInvalid(parsed.value);
          if (invalid !== undefined) {
            expect(r.status, `${invalid}: ${r.text.slice(0, 200)}`).toBe(400);
            return;
          }
          const b = r.json as Record<string, unknown>;
          if (JSON.stringify(parsed.value) === JSON.stringify(original)) {
            expect(PLACEMENT_SHAPE_CODES.has(code), r.text.slice(0, 300)).toBe(false);
          }
          if (r.status === 201 && b.status !== "REJECTED") {
            expect(meaning(parsed.value as Record<string, unknown>), r.text.slice(0, 200)).toBe(
              meaning(original as unknown as Record<string, unknown>),
            );
          }
        }),
        WEIGHT,
      );
    },
    timeoutFor(WEIGHT),
  );
});
