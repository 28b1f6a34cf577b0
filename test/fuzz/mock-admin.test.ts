import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimClock } from "../../src/core/sim-clock.js";
import { createMockExchange, type MockExchange } from "../../src/mock/mock-exchange.js";
import { mutateAll, mutateTextAll, mutationsArb, textMutationsArb, tryParse } from "./mutate.js";
import { fuzzAsync, printTally, timeoutFor } from "./runs.js";

/*
 * The mock's fault-injection API (/__admin/*, src/mock/faults/admin-routes.ts) over real HTTP on
 * 127.0.0.1, with each action's valid body mutated in tree and text and with garbage: never a
 * 500, always a JSON answer, and every refusal a bare envelope with the documented status and a
 * code (400 invalid_argument / bad_request, 404 unknown_*, 409 market_resolved).
 */

const started = performance.now();
const WEIGHT = 0.05;
let mock: MockExchange;
let seeds: [string, Record<string, unknown>][] = [];

beforeAll(async () => {
  mock = await createMockExchange({
    admin: true,
    flow: false,
    clock: new SimClock(Date.parse("2026-06-01T00:00:00Z")),
  });
  const s = mock.context.scenario;
  const m = s.markets[0];
  const key = s.apiKeys[1]?.key ?? "";
  seeds = [
    ["drop-sockets", {}],
    ["skip-seq", { tokenId: m?.yesTokenId }],
    ["reorder", { tokenId: "*" }],
    ["silence-feed", { tokenId: m?.noTokenId, on: false }],
    ["http-latency", { ms: 0 }],
    ["ws-latency", { ms: 5 }],
    ["fail-next", { count: 0, status: 503, code: "exchange_unavailable", retryAfterSeconds: 1 }],
    ["fail-next", { count: 0, status: 500, paths: ["/api/orders/cancel", "/api/orders/{id}"] }],
    ["hang-placements", { count: 0 }],
    ["revoke-key", { keyId: key.split("_")[2] }],
    ["expire-key", { keyId: key.split("_")[2] }],
    ["suspend-partner", { partnerId: s.partners[1]?.id }],
    ["reactivate-partner", { partnerId: s.partners[1]?.id }],
    ["pause-market", { marketId: m?.slug }],
    ["resume-market", { marketId: m?.id }],
    ["resolve-market", { marketId: s.markets[s.markets.length - 1]?.symbol, winningOutcome: "YES" }],
    ["market-status", { marketId: m?.id, status: "OPEN", cancelOpenOrders: false }],
    ["freeze-platform", { on: false }],
    ["reset", {}],
  ];
});

afterAll(async () => {
  await mock.close();
  printTally("mock-admin", started);
});

const caseArb = fc.record({
  i: fc.nat(),
  ms: fc.option(mutationsArb, { freq: 5 }),
  ts: fc.option(textMutationsArb, { freq: 3 }),
});

describe("fuzz: the mock's admin API", () => {
  it(
    "never 500; every refusal is a bare envelope with its documented status and a code",
    async () => {
      await fuzzAsync(
        "mock admin: fuzzed action bodies",
        fc.asyncProperty(caseArb, async ({ i, ms, ts }) => {
          const [action, seed] = seeds[i % seeds.length] as [string, Record<string, unknown>];
          const text = mutateTextAll(JSON.stringify(mutateAll(seed, ms ?? [])) ?? "", ts ?? []);
          const res = await fetch(`${mock.httpUrl}/__admin/${action}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: text,
          });
          const body = await res.text();
          expect(res.status, `${action} ${text.slice(0, 100)} → ${body.slice(0, 200)}`).not.toBe(500);
          const parsed = tryParse(body);
          expect(parsed.ok, body.slice(0, 200)).toBe(true);
          if (res.status === 200) return;
          expect([400, 404, 409]).toContain(res.status);
          const b = (parsed.ok ? parsed.value : {}) as Record<string, unknown>;
          expect(typeof b.code === "string" && b.code !== "", body.slice(0, 200)).toBe(true);
          expect(typeof b.message).toBe("string");
        }),
        WEIGHT,
      );
    },
    timeoutFor(WEIGHT),
  );
});
