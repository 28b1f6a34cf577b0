import { describe, expect, it } from "vitest";
import type { RiskDecision } from "../../../src/risk/decision.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { ctx, market, QUOTES, SYNCED, sh, smallConfig } from "./helpers.js";

describe("RiskGuard event inputs", () => {
  it("kill switch: one wallet cancel-all at the trip, then every token is gated until reset", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.onPnl(sh(40), 0)).toBeUndefined();
    expect(guard.onPnl(-sh(30), 1)).toBeUndefined(); // 70 below the peak of 40
    const trip = guard.onPnl(-sh("60.5"), 2) as RiskDecision;
    expect(trip).toMatchObject({
      reason: "kill_switch",
      action: "cancel",
      scope: "wallet",
      tokenId: undefined,
    });
    expect(trip.detail).toEqual({ peak: "40", pnl: "-60.5", drawdown: "100.5", limit: "100" });
    expect(guard.killSwitchActive()).toBe(true);
    expect(guard.onPnl(sh(500), 3)).toBeUndefined(); // recovery: still tripped, not re-reported
    expect(guard.mustCancel("never-seen-token", 3)).toBe("kill_switch");
    expect(guard.filter(ctx(), QUOTES, 3).allowed).toEqual([]);
    guard.resetKillSwitch();
    expect(guard.killSwitchActive()).toBe(false);
    expect(guard.filter(ctx(), QUOTES, 4).allowed).toEqual(QUOTES);
  });

  it("error-rate halt: a wallet cancel-all when tripped; quoting resumes after the cool-down", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.onOrderError("not_cancellable", 0)).toBeUndefined(); // ignored by default
    expect(guard.onOrderError("order_not_found", 0)).toBeUndefined();
    for (const t of [1000, 2000, 3000]) expect(guard.onOrderError("bad_signature", t)).toBeUndefined();
    const halt = guard.onOrderError("bad_signature", 4000);
    expect(halt).toMatchObject({ reason: "error_rate_halt", scope: "wallet", action: "cancel" });
    expect(halt?.detail).toEqual({ code: "bad_signature", maxErrors: 3, windowMs: 10_000, until: 64_000 });
    expect(guard.errorHalted(63_999)).toBe(true);
    expect(guard.mustCancel("tok-yes", 63_999)).toBe("error_rate_halt");
    expect(guard.filter(ctx(), QUOTES, 63_999).allowed).toEqual([]);
    expect(guard.filter(ctx(), QUOTES, 64_000).allowed).toEqual(QUOTES);
  });

  it("platform_status: a wallet cancel-all on becoming frozen, once", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.onPlatformStatus(false)).toBeUndefined();
    expect(guard.onPlatformStatus(true)).toMatchObject({ reason: "platform_frozen", scope: "wallet" });
    expect(guard.onPlatformStatus(true)).toBeUndefined();
    expect(guard.platformFrozen()).toBe(true);
    expect(guard.filter(ctx(), QUOTES, 0).decisions[0]?.reason).toBe("platform_frozen");
    expect(guard.onPlatformStatus(false)).toBeUndefined();
    expect(guard.filter(ctx(), QUOTES, 0).allowed).toEqual(QUOTES);
  });

  it("market status: a market cancel-all on leaving OPEN; the latest report beats the TokenMarket", () => {
    const guard = new RiskGuard(smallConfig());
    guard.watch(market());
    expect(guard.mustCancel("tok-yes", 0)).toBeUndefined();
    const paused = guard.onMarketStatus("mkt-1", "PAUSED");
    expect(paused).toMatchObject({
      reason: "market_not_open",
      scope: "market",
      marketId: "mkt-1",
      tokenId: undefined,
    });
    expect(paused?.detail).toEqual({ status: "PAUSED" });
    expect(guard.onMarketStatus("mkt-1", "SUSPENDED")).toBeUndefined(); // still not open: no second cancel-all
    expect(guard.mustCancel("tok-yes", 0)).toBe("market_not_open");
    expect(guard.filter(ctx(), QUOTES, 0).decisions[0]?.reason).toBe("market_not_open"); // ctx says OPEN
    expect(guard.onMarketStatus("mkt-1", "OPEN")).toBeUndefined();
    expect(guard.filter(ctx({ market: { status: "PAUSED" } }), QUOTES, 0).allowed).toEqual(QUOTES);
    expect(guard.mustCancel("tok-yes", 0)).toBeUndefined();
    expect(guard.onMarketStatus("mkt-2", "RESOLVED")).toMatchObject({ marketId: "mkt-2" });
  });

  it("book state: a token cancel when the book stops being quotable, not on every repeat", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.onBookState("tok-yes", SYNCED)).toBeUndefined();
    const stale = guard.onBookState("tok-yes", { status: "stale", crossed: false });
    expect(stale).toMatchObject({
      reason: "book_stale",
      action: "cancel",
      scope: "token",
      tokenId: "tok-yes",
    });
    expect(guard.onBookState("tok-yes", { status: "stale", crossed: false })).toBeUndefined();
    expect(guard.onBookState("tok-yes", { status: "resyncing", crossed: true })?.reason).toBe("book_crossed");
    expect(guard.mustCancel("tok-yes", 0)).toBe("book_crossed");
    expect(guard.onBookState("tok-yes", SYNCED)).toBeUndefined();
    expect(guard.mustCancel("tok-yes", 0)).toBeUndefined();
  });

  it("mustCancel of a token never seen: only the wallet-wide gates", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.mustCancel("unknown", 0)).toBeUndefined();
    guard.onPlatformStatus(true);
    expect(guard.mustCancel("unknown", 0)).toBe("platform_frozen");
  });
});
