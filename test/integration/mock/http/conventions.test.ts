import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockHarness, WALLET } from "./harness.js";

/**
 * The spec's "Conventions that hold on every endpoint", one test per rule, over real HTTP to the
 * mock on 127.0.0.1 (a SimClock drives its time).
 */

const INTEGER_FIELDS = new Set([
  "expiry",
  "seq",
  "outcomeIndex",
  "outcomeCount",
  "currentReviewRound",
  "feeTakerBps",
  "resolutionWindowHours",
  "cancelled",
  "blockNumber",
  "makerFeeBps",
  "trades",
  "settledTrades",
]);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TIME_KEY = /(At|Time|time|since|kickoff|timestamp)$/;

function walk(value: unknown, visit: (key: string, v: unknown) => void, key = ""): void {
  visit(key, value);
  if (Array.isArray(value)) for (const v of value) walk(v, visit, key);
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) walk(v, visit, k);
  }
}

let h: MockHarness;
/** Success bodies of most read endpoints after some activity (a fill, a withdrawal). */
const bodies = new Map<string, unknown>();

beforeAll(async () => {
  h = await MockHarness.start();
  const maker = await h.order(WALLET.mm, "ARG-WIN", { side: "sell", price: "0.56", quantity: "20" });
  expect((await h.fetch("/api/orders/place", { key: h.keys.trader, body: maker })).status).toBe(201);
  const taker = await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.56", quantity: "5" });
  const filled = await h.fetch("/api/orders/place", {
    key: h.keys.multiKyc,
    wallet: WALLET.kyc,
    body: taker,
  });
  expect(filled.body.status).toBe("FILLED");
  bodies.set("place", filled.body);
  const withdrawal = {
    amount: "12.5",
    destination: WALLET.kyc.toUpperCase().replace("0X", "0x"),
    signature: `0x${"1b".repeat(65)}`,
  };
  expect((await h.fetch("/api/withdrawals/request", { key: h.keys.trader, body: withdrawal })).status).toBe(
    201,
  );
  h.clock.advanceBy(h.scenario.timing.settlementDelayMs);
  const orderId = String(
    (await h.fetch("/api/orders/open", { key: h.keys.trader })).list.map((o) => (o as { id: string }).id)[0],
  );
  const reads: [string, string, string?][] = [
    ["/api/markets", ""],
    ["/api/markets/arg-vs-fra-final-arg-win", ""],
    ["/api/markets/ARG-WIN/orderbook", ""],
    ["/api/markets/ARG-WIN/trades", ""],
    ["/api/markets/ARG-WIN/price-history", ""],
    ["/api/markets/ARG-WIN/ohlc?interval=s5", ""],
    ["/api/events", ""],
    ["/api/matches", ""],
    ["/api/tags", ""],
    ["/api/platform/status", ""],
    ["/api/platform/notices", ""],
    ["/api/orders/open", h.keys.trader],
    ["/api/orders/history", h.keys.trader],
    [`/api/orders/${orderId}`, h.keys.trader],
    [`/api/orders/${orderId}/fills`, h.keys.trader],
    ["/api/orders/fees-summary", h.keys.trader],
    ["/api/me/balances", h.keys.trader],
    ["/api/me/positions", h.keys.trader],
    ["/api/me/trades", h.keys.trader],
    ["/api/me/fees", h.keys.trader],
    ["/api/me/fee-tier", h.keys.trader],
    ["/api/me/portfolio", h.keys.trader],
    ["/api/me/vault", h.keys.trader],
    ["/api/me/deposit-limits", h.keys.trader],
    ["/api/me/withdrawals", h.keys.trader],
  ];
  for (const [path, key] of reads) {
    const res = await h.fetch(path, key === "" ? {} : { key });
    expect(res.status, path).toBe(200);
    bodies.set(path, res.list.length > 0 ? res.list : res.body);
  }
});

afterAll(() => h.close());

describe("Conventions", () => {
  it("1. decimals are JSON strings: the only JSON numbers are documented integers", () => {
    for (const [path, body] of bodies) {
      walk(body, (key, v) => {
        if (typeof v === "number")
          expect(INTEGER_FIELDS.has(key) && Number.isInteger(v), `${path} ${key}=${v}`).toBe(true);
      });
    }
    const place = bodies.get("place") as Record<string, unknown>;
    expect(typeof place.filledQty).toBe("string");
  });

  it("2. timestamps are ISO-8601 UTC strings (or null where not set)", () => {
    let seen = 0;
    for (const [path, body] of bodies) {
      walk(body, (key, v) => {
        if (!TIME_KEY.test(key) || key === "tsMs") return;
        seen++;
        expect(v === null || (typeof v === "string" && ISO.test(v)), `${path} ${key}=${String(v)}`).toBe(
          true,
        );
      });
    }
    expect(seen).toBeGreaterThan(50);
  });

  it("3. addresses in responses are lowercase, even when requests use EIP-55 case", async () => {
    for (const [path, body] of bodies) {
      walk(body, (key, v) => {
        if (typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v))
          expect(v, `${path} ${key}`).toBe(v.toLowerCase());
      });
    }
    const checksummed = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const res = await h.fetch("/api/orders/history", { key: h.keys.multiKyc, wallet: checksummed });
    expect(res.body.walletAddress).toBe(WALLET.kyc);
  });

  it("4. orderId in the placement and cancel body, id on /api/orders/{id}, /open and /history: same value", async () => {
    const body = await h.order(WALLET.mm, "FRA-WIN", { side: "buy", price: "0.2", quantity: "3" });
    const placed = await h.fetch("/api/orders/place", { key: h.keys.trader, body });
    const orderId = placed.body.orderId as string;
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await h.fetch(`/api/orders/${orderId}`, { key: h.keys.trader })).body.id).toBe(orderId);
    expect(
      (await h.fetch("/api/orders/open", { key: h.keys.trader })).list.map((o) => (o as { id: string }).id),
    ).toContain(orderId);
    const history = (await h.fetch("/api/orders/history", { key: h.keys.trader })).body.orders as {
      id: string;
    }[];
    expect(history.map((o) => o.id)).toContain(orderId);
    const cancelled = await h.fetch("/api/orders/cancel", { key: h.keys.trader, body: { orderId } });
    expect(cancelled.body).toEqual({ orderId, status: "CANCELLED" });
  });

  it.each([
    ["status on /api/orders/history", "/api/orders/history?status=DONE", true],
    ["interval on /ohlc", "/api/markets/ARG-WIN/ohlc?interval=m2", false],
    ["status on /api/me/withdrawals", "/api/me/withdrawals?status=LOST", true],
    ["outcome on /orderbook", "/api/markets/ARG-WIN/orderbook?outcome=MAYBE", false],
    ["role on /api/me/fees", "/api/me/fees?role=broker", true],
    ["status on /api/markets", "/api/markets?status=open", false],
  ])(
    "5. enum query parameters refuse unknown values with 400 bad_request: %s",
    async (_name, path, keyed) => {
      const res = await h.fetch(path, keyed ? { key: h.keys.trader } : {});
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("bad_request");
      expect((res.body.details as { allowed: unknown[] }).allowed.length).toBeGreaterThan(1);
    },
  );

  it("6. unknown query parameters are ignored", async () => {
    const plain = await h.fetch("/api/orders/history", { key: h.keys.trader });
    const extra = await h.fetch("/api/orders/history?foo=bar&sort=desc&include=everything", {
      key: h.keys.trader,
    });
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
    expect((await h.fetch("/api/markets?whatever=1")).status).toBe(200);
  });

  it.each(["0", "-3", "abc"])("7. limit=%s is 400 invalid_limit", async (limit) => {
    for (const path of ["/api/orders/history", "/api/me/withdrawals", "/api/me/trades"]) {
      const res = await h.fetch(`${path}?limit=${limit}`, { key: h.keys.trader });
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe("invalid_limit");
    }
  });

  it("7. limit above the maximum is clamped to it (200 on /api/orders/history)", async () => {
    const m = h.market("OVER-2-5");
    for (let i = 0; i < 205; i++) {
      h.ctx.venue.place({
        wallet: WALLET.kyc,
        marketId: m.id,
        outcome: "YES",
        side: "buy",
        price: 10_000n,
        quantity: 1_000_000n,
      });
    }
    const res = await h.fetch("/api/orders/history?limit=5000", { key: h.keys.multiKyc, wallet: WALLET.kyc });
    expect(res.status).toBe(200);
    expect((res.body.orders as unknown[]).length).toBe(200);
    expect(typeof res.body.nextCursor).toBe("string");
  });

  it("8. every response carries X-API-Version, X-Server-Time, a unique X-Request-Id, CORS exposing them", async () => {
    const ids = new Set<string>();
    for (const path of ["/health", "/api/markets", "/api/no-such-thing", "/api/me/balances"]) {
      const res = await h.fetch(path);
      expect(res.headers.get("x-api-version"), path).toBe("2026-04-01");
      expect(res.headers.get("x-server-time"), path).toBe(String(h.clock.now()));
      ids.add(res.headers.get("x-request-id") ?? "");
      const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase();
      for (const name of [
        "x-api-version",
        "x-server-time",
        "x-request-id",
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
      ]) {
        expect(exposed, `${path} exposes ${name}`).toContain(name);
      }
    }
    expect(ids.size).toBe(4);
    const limited = await h.fetch("/api/markets");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("600");
    expect(Number(limited.headers.get("x-ratelimit-remaining"))).toBeLessThan(600);
    expect(Number(limited.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
  });

  it("9. a business reject comes as 201 with the rejection inside the body", async () => {
    const body = await h.order(WALLET.kyc, "ARG-WIN", { side: "buy", price: "0.5", quantity: "1000000" });
    const res = await h.fetch("/api/orders/place", { key: h.keys.multiKyc, wallet: WALLET.kyc, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orderId: "", status: "REJECTED", code: "insufficient_funds" });
  });
});
