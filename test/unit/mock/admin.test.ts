import { beforeEach, describe, expect, it } from "vitest";
import type { MockContext } from "../../../src/mock/context.js";
import { MockAdmin } from "../../../src/mock/faults/admin.js";
import type { MarketScenario } from "../../../src/mock/scenario/types.js";
import { authAs, codeOf, detailsOf, FakeGateway, simContext } from "./sim-support.js";

const KEY_ALL = "mm_test_ba9533dcb8d806b6_ZS2A_RVQIyZo0QcwFbjXI0VP1uldYHzRqIwwTzj40RU";
const KEY_READ = "mm_test_e03d44eb088dd604_ZWYqx7w9hDl0_7sK2OWukM0XqTChMu--Fsu8P6hsZXs";
const KEY_MULTI = "mm_test_6af8b0dc45f787c6_4tfzTI-Y2e1P-z0lbzNzEBcwkupZKWB2dO3E7ymNtL4";

let ctx: MockContext;
let gw: FakeGateway;
let admin: MockAdmin;
let market: MarketScenario;

beforeEach(() => {
  ({ ctx } = simContext());
  gw = new FakeGateway();
  admin = new MockAdmin(ctx, gw);
  const m = ctx.markets.bySymbol("ARG-WIN");
  if (m === undefined) throw new Error("scenario lacks ARG-WIN");
  market = m;
});

const auth = (apiKey: string, userWallet?: string) => authAs(ctx, apiKey, userWallet);

describe("MockAdmin: feeds, latency and request faults", () => {
  it("adds feed faults per token or for every token, and refuses unknown tokens", () => {
    expect(admin.skipSeq(market.yesTokenId).skipSeq).toEqual([market.yesTokenId]);
    expect(admin.reorder("*").reorder).toEqual(["*"]);
    expect(admin.silenceFeed(market.noTokenId, true).silenced).toEqual([market.noTokenId]);
    expect(admin.silenceFeed(market.noTokenId, false).silenced).toEqual([]);
    expect(codeOf(() => admin.skipSeq("123"))).toEqual({ status: 404, code: "unknown_token" });
    expect(codeOf(() => admin.silenceFeed(""))).toEqual({ status: 400, code: "invalid_argument" });
  });

  it("refuses token_book subscriptions per token with a spec code (default invalid_params), and lifts them", () => {
    expect(admin.refuseBooks([market.yesTokenId]).refusedBooks).toEqual({
      [market.yesTokenId]: "invalid_params",
    });
    admin.refuseBooks([market.yesTokenId, market.noTokenId], "subscription_too_many_ids");
    expect(admin.state().faults.feed.refusedBooks).toEqual({
      [market.yesTokenId]: "subscription_too_many_ids",
      [market.noTokenId]: "subscription_too_many_ids",
    });
    expect(admin.refuseBooks([market.yesTokenId], undefined, false).refusedBooks).toEqual({
      [market.noTokenId]: "subscription_too_many_ids",
    });
    expect(codeOf(() => admin.refuseBooks([market.yesTokenId], "nope"))).toEqual({
      status: 400,
      code: "invalid_argument",
    });
    expect(codeOf(() => admin.refuseBooks([]))).toEqual({ status: 400, code: "invalid_argument" });
    expect(codeOf(() => admin.refuseBooks("1" as unknown as string[])).code).toBe("invalid_argument");
    expect(codeOf(() => admin.refuseBooks(["*"]))).toEqual({ status: 404, code: "unknown_token" });
    expect(codeOf(() => admin.refuseBooks(["123"]))).toEqual({ status: 404, code: "unknown_token" });
  });

  it("sets latencies within bounds", () => {
    expect(admin.setHttpLatency(250)).toEqual({ httpLatencyMs: 250 });
    expect(admin.setWsLatency(40)).toEqual({ wsLatencyMs: 40 });
    expect(ctx.faults.httpLatencyMs).toBe(250);
    expect(codeOf(() => admin.setHttpLatency(-1)).code).toBe("invalid_argument");
    expect(codeOf(() => admin.setWsLatency(1.5)).code).toBe("invalid_argument");
  });

  it("arms failNext with the status's default code, a custom one, and cancels with count 0", () => {
    admin.failNextRequests(2, 429);
    expect(ctx.faults.failNext).toEqual({
      count: 2,
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 1,
    });
    admin.failNextRequests(1, 503, "exchange_transport_error", 0);
    expect(ctx.faults.failNext?.code).toBe("exchange_transport_error");
    admin.failNextRequests(3, 502);
    expect(ctx.faults.failNext?.code).toBe("exchange_upstream_error");
    admin.failNextRequests(0, 500);
    expect(ctx.faults.failNext).toBeUndefined();
    expect(codeOf(() => admin.failNextRequests(1, 404 as 500)).code).toBe("invalid_argument");
    expect(codeOf(() => admin.failNextRequests(1, "429" as unknown as 429)).code).toBe("invalid_argument");
  });

  it("filters failNext by route template: validated, shown in the state, cleared by reset", () => {
    const cancels = ["/api/orders/cancel", "/api/orders/cancel-all", "/api/orders/cancel"];
    expect(admin.failNextRequests(30, 500, undefined, 1, cancels).failNext).toEqual({
      count: 30,
      status: 500,
      code: "internal_error",
      retryAfterSeconds: 1,
      paths: ["/api/orders/cancel", "/api/orders/cancel-all"],
    });
    expect(admin.state().faults.failNext?.paths).toEqual(["/api/orders/cancel", "/api/orders/cancel-all"]);
    // Without a filter nothing says `paths` at all (every request fails, as before).
    expect(admin.failNextRequests(2, 502).failNext).not.toHaveProperty("paths");
    admin.failNextRequests(3, 503, undefined, 1, ["/api/orders/{id}"]);
    expect(admin.reset().faults.failNext).toBeNull();
    for (const bad of [[], "/api/orders/cancel", ["api/orders/cancel"], [7], ["/__admin/state"]]) {
      const err = codeOf(() => admin.failNextRequests(1, 500, undefined, 1, bad as string[]));
      expect([err, detailsOf(() => admin.failNextRequests(1, 500, undefined, 1, bad as string[]))]).toEqual([
        { status: 400, code: "invalid_argument" },
        expect.objectContaining({ field: "paths" }),
      ]);
    }
    expect(ctx.faults.failNext).toBeUndefined();
  });

  it("refuses a failNext path the HTTP API does not serve once its routes are known", () => {
    admin.attachRoutes(["/api/orders/cancel", "/api/orders/{id}"]);
    expect(admin.failNextRequests(1, 500, undefined, 1, ["/api/orders/{id}"]).failNext?.paths).toEqual([
      "/api/orders/{id}",
    ]);
    // A concrete path or a typo would never match: the storm would silently never come.
    for (const p of ["/api/orders/abc", "/api/orders/cancel-al"]) {
      expect(codeOf(() => admin.failNextRequests(1, 500, undefined, 1, [p]))).toEqual({
        status: 400,
        code: "invalid_argument",
      });
      expect(detailsOf(() => admin.failNextRequests(1, 500, undefined, 1, [p]))).toEqual({
        field: "paths",
        value: p,
      });
    }
  });

  it("arms placement hangs", () => {
    expect(admin.hangNextPlacements(2)).toEqual({ hangPlacements: 2 });
    expect(codeOf(() => admin.hangNextPlacements(-2)).code).toBe("invalid_argument");
  });

  it("drops sockets through the gateway and reports how many were open", () => {
    gw.sockets = 3;
    expect(admin.dropAllSockets()).toEqual({ dropped: 3 });
    expect(gw.calls).toEqual([{ fn: "dropAll" }]);
    expect(new MockAdmin(ctx).dropAllSockets()).toEqual({ dropped: 0 });
  });
});

describe("MockAdmin: keys and partners", () => {
  it("revokes a key: 401 api_key_revoked and its sockets closed", () => {
    expect(auth(KEY_ALL).ok).toBe(true);
    admin.revokeKey("ba9533dcb8d806b6");
    expect(auth(KEY_ALL)).toMatchObject({ ok: false, failure: { status: 401, code: "api_key_revoked" } });
    expect(gw.calls).toEqual([{ fn: "closeKey", keyId: "ba9533dcb8d806b6", reason: "api_key_revoked" }]);
    expect(auth(KEY_READ).ok).toBe(true);
    expect(codeOf(() => admin.revokeKey("ffffffffffffffff"))).toEqual({ status: 404, code: "unknown_key" });
  });

  it("expires a key now: 401 api_key_expired and its sockets closed", () => {
    const out = admin.expireKey("e03d44eb088dd604");
    expect(out.expiresAt).toBe(new Date(ctx.clock.now()).toISOString());
    expect(auth(KEY_READ)).toMatchObject({ ok: false, failure: { code: "api_key_expired" } });
    expect(gw.calls).toEqual([{ fn: "closeKey", keyId: "e03d44eb088dd604", reason: "api_key_expired" }]);
  });

  it("suspends and reactivates a partner", () => {
    const wallet = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    expect(admin.suspendPartner("partner-multi-kyc")).toEqual({
      partnerId: "partner-multi-kyc",
      status: "suspended",
      keys: 1,
    });
    expect(auth(KEY_MULTI, wallet)).toMatchObject({ ok: false, failure: { code: "api_key_suspended" } });
    expect(gw.calls).toEqual([
      { fn: "closePartner", partnerId: "partner-multi-kyc", reason: "api_key_suspended" },
    ]);
    admin.reactivatePartner("partner-multi-kyc");
    expect(auth(KEY_MULTI, wallet).ok).toBe(true);
    expect(codeOf(() => admin.suspendPartner("nobody")).code).toBe("unknown_partner");
  });
});
