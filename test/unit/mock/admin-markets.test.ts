import { beforeEach, describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import type { MockContext } from "../../../src/mock/context.js";
import { MockAdmin } from "../../../src/mock/faults/admin.js";
import { noFaults } from "../../../src/mock/faults/state.js";
import type { MarketScenario } from "../../../src/mock/scenario/types.js";
import type { VenueEvent } from "../../../src/venue/events.js";
import { authAs, codeOf, FakeGateway, MM_WALLET, simContext } from "./sim-support.js";

const KEY_ALL = "mm_test_ba9533dcb8d806b6_ZS2A_RVQIyZo0QcwFbjXI0VP1uldYHzRqIwwTzj40RU";

let ctx: MockContext;
let gw: FakeGateway;
let admin: MockAdmin;
let market: MarketScenario;
let events: VenueEvent[];

beforeEach(() => {
  ({ ctx } = simContext());
  gw = new FakeGateway();
  admin = new MockAdmin(ctx, gw);
  const m = ctx.markets.bySymbol("ARG-WIN");
  if (m === undefined) throw new Error("scenario lacks ARG-WIN");
  market = m;
  events = [];
  ctx.venue.subscribe((e) => events.push(e));
});

const auth = (apiKey: string, userWallet?: string) => authAs(ctx, apiKey, userWallet);

function place(side: "buy" | "sell", price: string, qty: string) {
  return ctx.venue.place({
    wallet: MM_WALLET,
    marketId: market.id,
    outcome: "YES",
    side,
    price: toWei(price),
    quantity: toWei(qty),
  });
}

describe("MockAdmin: markets and platform", () => {
  it("pauses (placements market_not_open, resting orders kept) and resumes, by symbol, slug or id", () => {
    expect(place("buy", "0.40", "10").status).toBe("OPEN");
    const change = admin.pauseMarket("ARG-WIN");
    expect(change).toMatchObject({ marketId: market.id, status: "PAUSED", previous: "OPEN", cancelled: 0 });
    expect(place("buy", "0.40", "10")).toMatchObject({ status: "REJECTED", code: "market_not_open" });
    expect(ctx.venue.openOrders(MM_WALLET, market.id)).toHaveLength(1);
    expect(events.some((e) => e.type === "market_status" && e.status === "PAUSED")).toBe(true);
    // The gateways derive market_paused from the venue's event: the admin does not push a duplicate.
    expect(gw.calls).toEqual([]);
    admin.resumeMarket(market.slug);
    expect(place("buy", "0.40", "10").status).toBe("OPEN");
    admin.pauseMarket(market.id);
    expect(ctx.venue.market(market.id)?.status).toBe("PAUSED");
    expect(codeOf(() => admin.pauseMarket("NOPE"))).toEqual({ status: 404, code: "unknown_market" });
  });

  it("sets any status but RESOLVED, optionally cancelling resting orders", () => {
    place("buy", "0.40", "10");
    expect(admin.setMarketStatus("ARG-WIN", "SUSPENDED", { cancelOpenOrders: true }).cancelled).toBe(1);
    expect(ctx.venue.openOrders(MM_WALLET, market.id)).toEqual([]);
    expect(codeOf(() => admin.setMarketStatus("ARG-WIN", "RESOLVED")).code).toBe("invalid_argument");
    expect(codeOf(() => admin.setMarketStatus("ARG-WIN", "SOLD" as "OPEN")).code).toBe("invalid_argument");
  });

  it("resolves: orders cancelled, 1 USDC per winning share, losing shares burnt, market_resolved pushed, final", () => {
    const usdcBefore = ctx.venue.balances(MM_WALLET).usdc.balance;
    expect(place("sell", "0.70", "100").status).toBe("OPEN"); // reserves 100 YES
    expect(place("buy", "0.30", "100").status).toBe("OPEN"); // reserves 30 USDC
    const r = admin.resolveMarket("ARG-WIN", "YES");
    expect(r).toMatchObject({ status: "RESOLVED", cancelled: 2, winningOutcome: "YES" });
    expect(r.payouts).toEqual({ "0": "1", "1": "0" });
    expect(r.redeemed).toContainEqual({
      wallet: MM_WALLET,
      tokenId: market.yesTokenId,
      shares: "5000",
      usdc: "5000",
    });
    expect(r.redeemed).toContainEqual({
      wallet: MM_WALLET,
      tokenId: market.noTokenId,
      shares: "5000",
      usdc: "0",
    });
    expect(ctx.venue.balances(MM_WALLET).usdc).toEqual({
      balance: usdcBefore + toWei("5000"),
      reserved: 0n,
      available: usdcBefore + toWei("5000"),
    });
    expect(ctx.venue.positions(MM_WALLET).filter((p) => p.marketId === market.id)).toEqual([]);
    // The flow wallet held 10M of each: it is redeemed too.
    expect(r.redeemed.some((x) => x.wallet === ctx.scenario.flow.wallet && x.usdc === "10000000")).toBe(true);
    expect(gw.calls).toEqual([
      {
        fn: "publishMarketLifecycle",
        conditionId: market.conditionId,
        event: { type: "market_resolved", resolution: "YES", payouts: { "0": "1", "1": "0" } },
      },
    ]);
    expect(codeOf(() => admin.resolveMarket("ARG-WIN", "NO"))).toEqual({
      status: 409,
      code: "market_resolved",
    });
    expect(codeOf(() => admin.resumeMarket("ARG-WIN")).code).toBe("market_resolved");
    expect(codeOf(() => admin.resolveMarket("FRA-WIN", "MAYBE" as "NO")).code).toBe("invalid_argument");
  });

  it("resolving NO pays the NO holders", () => {
    const before = ctx.venue.balances(MM_WALLET).usdc.balance;
    admin.resolveMarket("FRA-WIN", 1);
    expect(ctx.venue.balances(MM_WALLET).usdc.balance - before).toBe(toWei("5000"));
  });

  it("freezes and unfreezes the platform with a platform_status push each time", () => {
    expect(admin.freezePlatform(true)).toEqual({ platformFrozen: true });
    expect(ctx.faults.platformFrozen).toBe(true);
    admin.freezePlatform(false);
    expect(gw.calls).toEqual([{ fn: "publishPlatformStatus" }, { fn: "publishPlatformStatus" }]);
  });

  it("reset clears every injected fault (and announces the unfreeze) but keeps state changes", () => {
    admin.failNextRequests(5, 503);
    admin.setHttpLatency(100);
    admin.setWsLatency(100);
    admin.hangNextPlacements(1);
    admin.skipSeq("*");
    admin.reorder("*");
    admin.silenceFeed("*");
    admin.refuseBooks([ctx.markets.bySymbol("ARG-WIN")?.yesTokenId ?? ""]);
    admin.freezePlatform(true);
    admin.pauseMarket("ARG-WIN");
    admin.revokeKey("ba9533dcb8d806b6");
    const state = admin.reset();
    const clean = noFaults();
    expect(ctx.faults.failNext).toBe(clean.failNext);
    expect({ ...ctx.faults, feed: undefined }).toEqual({ ...clean, feed: undefined });
    expect(state.faults.feed).toEqual({ skipSeq: [], reorder: [], silenced: [], refusedBooks: {} });
    expect(gw.calls.filter((c) => c.fn === "publishPlatformStatus")).toHaveLength(2);
    expect(state.markets.find((m) => m.symbol === "ARG-WIN")?.status).toBe("PAUSED");
    expect(auth(KEY_ALL).ok).toBe(false);
  });

  it("reports the state as JSON-safe data", () => {
    admin.failNextRequests(1, 429, undefined, 9);
    gw.sockets = 2;
    const state = admin.state();
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state.faults.failNext).toEqual({
      count: 1,
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 9,
    });
    expect(state.openSockets).toBe(2);
    expect(state.markets.find((m) => m.symbol === "EXTRA-TIME")?.status).toBe("PAUSED");
  });
});
