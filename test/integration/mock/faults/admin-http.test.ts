import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SimClock } from "../../../../src/core/sim-clock.js";
import type { MockContext } from "../../../../src/mock/context.js";
import { MockAdmin } from "../../../../src/mock/faults/admin.js";
import { adminRoutes } from "../../../../src/mock/faults/admin-routes.js";
import { type HttpListener, listenHttp } from "../../../../src/mock/http/listen.js";
import { FakeGateway, MM_WALLET, simContext } from "../../../unit/mock/sim-support.js";
import { standInRoutes } from "./stand-in-routes.js";

const KEY_ALL = "mm_test_ba9533dcb8d806b6_ZS2A_RVQIyZo0QcwFbjXI0VP1uldYHzRqIwwTzj40RU";
const KEY_READ = "mm_test_e03d44eb088dd604_ZWYqx7w9hDl0_7sK2OWukM0XqTChMu--Fsu8P6hsZXs";
const KEY_MULTI = "mm_test_6af8b0dc45f787c6_4tfzTI-Y2e1P-z0lbzNzEBcwkupZKWB2dO3E7ymNtL4";
const MULTI_WALLET = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

let ctx: MockContext;
let clock: SimClock;
let gw: FakeGateway;
let http: HttpListener;
let marketId: string;

beforeEach(async () => {
  ({ ctx, clock } = simContext());
  gw = new FakeGateway();
  const api = standInRoutes(ctx);
  const mockAdmin = new MockAdmin(ctx, gw);
  mockAdmin.attachRoutes(api.map((r) => r.pattern));
  http = await listenHttp(ctx, [...api, ...adminRoutes(mockAdmin)]);
  marketId = ctx.markets.bySymbol("ARG-WIN")?.id ?? "";
});

afterEach(async () => {
  await http.close();
});

async function admin(action: string, body: unknown = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${http.url}/__admin/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function get(path: string, key?: string, wallet?: string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers["X-Api-Key"] = key;
  if (wallet !== undefined) headers["X-User-Wallet"] = wallet;
  return fetch(`${http.url}${path}`, { headers });
}

function place(clientOrderId: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${http.url}/api/orders/place`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Api-Key": KEY_ALL },
    body: JSON.stringify({
      marketId,
      outcome: "YES",
      side: "buy",
      price: "0.30",
      quantity: "10",
      clientOrderId,
    }),
    ...(signal === undefined ? {} : { signal }),
  });
}

async function codeOf(res: Response): Promise<string> {
  const b = (await res.json()) as { code?: string; error?: { code: string } };
  return b.error?.code ?? b.code ?? "";
}

const ORDERBOOK = "/api/markets/ARG-WIN/orderbook";

describe("/__admin over real HTTP", () => {
  it("fail-next: the next N requests fail with the status, code and Retry-After, then service is normal", async () => {
    expect((await admin("fail-next", { count: 2, status: 429, retryAfterSeconds: 7 })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await get(ORDERBOOK);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("7");
      const body = (await res.json()) as { status: number; error: { code: string; trace_id: string } };
      expect(body.status).toBe(429);
      expect(body.error.code).toBe("rate_limited");
      expect(res.headers.get("x-trace-id")).toBe(body.error.trace_id);
      // The admin channel is exempt and does not consume the count.
      const state = await fetch(`${http.url}/__admin/state`);
      expect(state.status).toBe(200);
    }
    expect((await get(ORDERBOOK)).status).toBe(200);

    await admin("fail-next", { count: 1, status: 503, code: "exchange_transport_error" });
    const res = await get("/api/me/balances", KEY_ALL);
    expect([res.status, await codeOf(res), res.headers.get("retry-after")]).toEqual([
      503,
      "exchange_transport_error",
      null,
    ]);
    expect((await get("/api/me/balances", KEY_ALL)).status).toBe(200);
  });

  it("fail-next with paths: only requests to those routes fail and consume the count", async () => {
    const resting = await place("rest-1");
    const { orderId } = (await resting.json()) as { orderId: string };
    const cancel = () =>
      fetch(`${http.url}/api/orders/cancel`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Api-Key": KEY_ALL },
        body: JSON.stringify({ orderId }),
      });
    const armed = await admin("fail-next", { count: 2, status: 500, paths: ["/api/orders/cancel"] });
    expect(armed.body.failNext).toMatchObject({ count: 2, paths: ["/api/orders/cancel"] });
    // Reads and placements pass untouched, and leave the count where it was.
    expect((await get(ORDERBOOK)).status).toBe(200);
    expect((await get(`/api/orders/${orderId}`, KEY_ALL)).status).toBe(200);
    expect((await place("rest-2")).status).toBe(201);
    const state = async () =>
      ((await (await fetch(`${http.url}/__admin/state`)).json()) as { faults: { failNext: unknown } }).faults
        .failNext;
    expect(await state()).toEqual({
      count: 2,
      status: 500,
      code: "internal_error",
      retryAfterSeconds: 1,
      paths: ["/api/orders/cancel"],
    });
    for (let i = 0; i < 2; i++) {
      const res = await cancel();
      expect([res.status, await codeOf(res)]).toEqual([500, "internal_error"]);
    }
    expect(await state()).toBeNull();
    expect((await cancel()).status).toBe(200);
    expect(ctx.venue.openOrders(MM_WALLET, marketId).map((o) => o.clientOrderId)).toEqual(["rest-2"]);
  });

  it("fail-next refuses a paths filter naming a route the mock does not serve, with 400 on paths", async () => {
    for (const paths of [["/api/orders/cancel-alll"], ["/api/orders/abc"], "/api/orders/cancel", []]) {
      const res = await admin("fail-next", { count: 1, status: 500, paths });
      expect([res.status, res.body.code, (res.body.details as { field?: string }).field]).toEqual([
        400,
        "invalid_argument",
        "paths",
      ]);
    }
    expect(ctx.faults.failNext).toBeUndefined();
    // A route template with a parameter is how the spec names it, and is accepted.
    expect((await admin("fail-next", { count: 1, status: 502, paths: ["/api/orders/{id}"] })).status).toBe(
      200,
    );
    expect((await get("/api/orders/nope", KEY_ALL)).status).toBe(502);
  });

  it("hang-placements: the placement reaches the venue but is never answered; the next one is", async () => {
    await admin("hang-placements", { count: 1 });
    await expect(place("hang-1", AbortSignal.timeout(300))).rejects.toThrow();
    const open = ctx.venue.openOrders(MM_WALLET, marketId);
    expect(open.map((o) => o.clientOrderId)).toEqual(["hang-1"]);
    expect(ctx.faults.hangPlacements).toBe(0);
    const next = await place("after-hang");
    expect(next.status).toBe(201);
  });

  it("revoke-key and expire-key: 401 with the lifecycle code, sockets of the key closed", async () => {
    expect((await get("/api/me/balances", KEY_ALL)).status).toBe(200);
    expect((await admin("revoke-key", { keyId: "ba9533dcb8d806b6" })).body).toEqual({
      keyId: "ba9533dcb8d806b6",
      revoked: true,
    });
    const revoked = await get("/api/me/balances", KEY_ALL);
    expect([revoked.status, await codeOf(revoked)]).toEqual([401, "api_key_revoked"]);

    expect((await get("/api/orders/unknown", KEY_READ)).status).toBe(404); // authenticated, then not found
    await admin("expire-key", { keyId: "e03d44eb088dd604" });
    const expired = await get("/api/orders/unknown", KEY_READ);
    expect([expired.status, await codeOf(expired)]).toEqual([401, "api_key_expired"]);
    expect(gw.calls).toEqual([
      { fn: "closeKey", keyId: "ba9533dcb8d806b6", reason: "api_key_revoked" },
      { fn: "closeKey", keyId: "e03d44eb088dd604", reason: "api_key_expired" },
    ]);
    const unknown = await admin("revoke-key", { keyId: "0000000000000000" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "unknown_key"]);
  });

  it("suspend-partner / reactivate-partner: 401 api_key_suspended while suspended", async () => {
    expect((await get("/api/me/balances", KEY_MULTI, MULTI_WALLET)).status).toBe(200);
    await admin("suspend-partner", { partnerId: "partner-multi-kyc" });
    const res = await get("/api/me/balances", KEY_MULTI, MULTI_WALLET);
    expect([res.status, await codeOf(res)]).toEqual([401, "api_key_suspended"]);
    expect(gw.calls).toEqual([
      { fn: "closePartner", partnerId: "partner-multi-kyc", reason: "api_key_suspended" },
    ]);
    await admin("reactivate-partner", { partnerId: "partner-multi-kyc" });
    expect((await get("/api/me/balances", KEY_MULTI, MULTI_WALLET)).status).toBe(200);
  });

  it("pause-market: placements 409 market_not_open, cancels still work; resume-market reopens", async () => {
    const first = (await (await place("before-pause")).json()) as { orderId: string };
    expect((await admin("pause-market", { marketId: "ARG-WIN" })).body).toMatchObject({
      status: "PAUSED",
      previous: "OPEN",
    });
    const refused = await place("during-pause");
    expect([refused.status, await codeOf(refused)]).toEqual([409, "market_not_open"]);
    const cancel = await fetch(`${http.url}/api/orders/cancel`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Api-Key": KEY_ALL },
      body: JSON.stringify({ orderId: first.orderId }),
    });
    expect(cancel.status).toBe(200);
    await admin("resume-market", { marketId: "ARG-WIN" });
    expect((await place("after-resume")).status).toBe(201);
    await admin("market-status", { marketId: "ARG-WIN", status: "SUSPENDED", cancelOpenOrders: true });
    expect(ctx.venue.openOrders(MM_WALLET, marketId)).toEqual([]);
    expect((await place("suspended")).status).toBe(409);
  });

  it("resolve-market: holders paid 1 USDC per winning share, lifecycle pushed", async () => {
    const before = (await (await get("/api/me/balances", KEY_ALL)).json()) as { total: string };
    const r = await admin("resolve-market", { marketId: "ARG-WIN", winningOutcome: "YES" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: "RESOLVED",
      winningOutcome: "YES",
      payouts: { "0": "1", "1": "0" },
    });
    const after = (await (await get("/api/me/balances", KEY_ALL)).json()) as { total: string };
    expect(Number(after.total) - Number(before.total)).toBe(5_000);
    expect(gw.calls.map((c) => c.fn)).toEqual(["publishMarketLifecycle"]);
    expect((await place("resolved")).status).toBe(409);
  });

  it("freeze-platform: placements 503 exchange_unavailable, reads still served; unfreeze restores", async () => {
    expect((await admin("freeze-platform", { on: true })).body).toEqual({ platformFrozen: true });
    const refused = await place("frozen");
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { status: number; error: { code: string; trace_id: string } };
    expect(body.error.code).toBe("exchange_unavailable");
    expect(refused.headers.get("x-trace-id")).toBe(body.error.trace_id);
    expect(ctx.venue.openOrders(MM_WALLET)).toEqual([]);
    expect((await get(ORDERBOOK)).status).toBe(200);
    await admin("freeze-platform", { on: false });
    expect((await place("thawed")).status).toBe(201);
    expect(gw.calls).toEqual([{ fn: "publishPlatformStatus" }, { fn: "publishPlatformStatus" }]);
  });

  it("http-latency delays answers on the mock's clock; admin answers are never delayed", async () => {
    expect((await admin("http-latency", { ms: 500 })).status).toBe(200);
    let done = false;
    const pending = get(ORDERBOOK).then((r) => {
      done = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    clock.advanceBy(500);
    expect((await pending).status).toBe(200);
    expect((await admin("http-latency", { ms: 0 })).status).toBe(200);
    expect((await get(ORDERBOOK)).status).toBe(200);
  });

  it("reset clears every fault in one call", async () => {
    await admin("fail-next", { count: 5, status: 502, paths: ["/api/orders/cancel"] });
    expect(ctx.faults.failNext?.paths).toEqual(["/api/orders/cancel"]);
    await admin("hang-placements", { count: 3 });
    await admin("ws-latency", { ms: 50 });
    await admin("skip-seq", { tokenId: "*" });
    await admin("silence-feed", { tokenId: ctx.markets.bySymbol("ARG-WIN")?.yesTokenId });
    await admin("refuse-book", { tokenIds: [ctx.markets.bySymbol("ARG-WIN")?.noTokenId] });
    await admin("freeze-platform", {});
    expect((await admin("silence-lifecycle", {})).body).toEqual({ lifecycleSilenced: true });
    expect(ctx.faults.lifecycleSilenced).toBe(true);
    const state = await admin("reset");
    expect(state.body.faults).toEqual({
      failNext: null,
      httpLatencyMs: 0,
      hangPlacements: 0,
      wsLatencyMs: 0,
      platformFrozen: false,
      lifecycleSilenced: false,
      feed: { skipSeq: [], reorder: [], silenced: [], refusedBooks: {} },
    });
    expect((await place("after-reset")).status).toBe(201);
  });

  it("judges the socket peer, not X-Forwarded-For: a loopback peer claiming another address is served", async () => {
    const res = await admin("freeze-platform", { on: true }, { "X-Forwarded-For": "203.0.113.9" });
    expect(res.status).toBe(200);
    expect(ctx.faults.platformFrozen).toBe(true);
  });

  it("answers malformed bodies with 400", async () => {
    const res = await fetch(`${http.url}/__admin/fail-next`, { method: "POST", body: "{not json" });
    expect([res.status, await codeOf(res)]).toEqual([400, "bad_request"]);
    const bad = await admin("http-latency", { ms: "fast" });
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_argument"]);
    const missing = await admin("pause-market", {});
    expect([missing.status, missing.body.code]).toEqual([400, "invalid_argument"]);
  });
});
