import { describe, expect, it } from "vitest";
import { RiskGuard } from "../../../src/risk/guard.js";
import { ctx, QUOTES, sh, smallConfig } from "./helpers.js";

describe("RiskGuard gates: no quote, cancel the token's live quotes", () => {
  it.each([
    ["book_crossed", { book: { status: "synced", crossed: true } }],
    ["book_crossed", { book: { status: "resyncing", crossed: true } }],
    ["book_resyncing", { book: { status: "resyncing", crossed: false } }],
    ["book_stale", { book: { status: "stale", crossed: false } }],
    ["market_not_open", { market: { status: "PAUSED" } }],
    ["market_not_open", { market: { status: "CLOSED" } }],
    ["market_not_open", { market: { status: "PRE_MARKET" } }],
  ] as const)("%s for %j", (reason, over) => {
    const guard = new RiskGuard(smallConfig());
    const res = guard.filter(ctx(over as Parameters<typeof ctx>[0]), QUOTES, 0);
    expect(res.allowed).toEqual([]);
    expect(res.decisions).toEqual([
      {
        reason,
        action: "cancel",
        scope: "token",
        tokenId: "tok-yes",
        marketId: "mkt-1",
        side: undefined,
        level: undefined,
        detail: {},
      },
    ]);
    expect(guard.mustCancel("tok-yes", 0)).toBe(reason);
  });

  it("a synced, uncrossed book of an OPEN market passes", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.filter(ctx(), QUOTES, 0)).toEqual({ allowed: QUOTES, decisions: [] });
    expect(guard.mustCancel("tok-yes", 0)).toBeUndefined();
  });

  it("precedence: kill switch > frozen > error halt > market > book", () => {
    const guard = new RiskGuard(smallConfig());
    const bad = ctx({ market: { status: "PAUSED" }, book: { status: "stale", crossed: true } });
    const gate = (now: number) => guard.filter(bad, QUOTES, now).decisions[0]?.reason;
    expect(gate(0)).toBe("market_not_open");
    for (const t of [1, 2, 3, 4]) guard.onOrderError("insufficient_funds", t);
    expect(gate(5)).toBe("error_rate_halt");
    guard.onPlatformStatus(true);
    expect(gate(6)).toBe("platform_frozen");
    guard.onPnl(0n, 7);
    guard.onPnl(-sh(101), 8);
    expect(gate(9)).toBe("kill_switch");
    guard.resetKillSwitch();
    guard.onPlatformStatus(false);
    expect(gate(10)).toBe("error_rate_halt");
    expect(gate(60_004)).toBe("market_not_open"); // the 60 s cool-down from t = 4 is over
  });
});

describe("RiskGuard: a market held unquotable though OPEN (onMarketUnquotable)", () => {
  it("gates its tokens market_unquotable, a market cancel-all once, until it is lifted; a status report does not lift it", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.filter(ctx(), QUOTES, 0).allowed).toEqual(QUOTES);
    expect(guard.onMarketUnquotable("mkt-1", "FEE_TOO_HIGH", { feeTakerBps: 1500 })).toMatchObject({
      reason: "market_unquotable",
      action: "cancel",
      scope: "market",
      marketId: "mkt-1",
      detail: { status: "FEE_TOO_HIGH", feeTakerBps: 1500 },
    });
    expect(guard.onMarketUnquotable("mkt-1", "FEE_TOO_HIGH")).toBeUndefined();
    expect(guard.marketUnquotable("mkt-1")).toBe("FEE_TOO_HIGH");
    expect(guard.onMarketStatus("mkt-1", "OPEN")).toBeUndefined();
    expect(guard.mustCancel("tok-yes", 0)).toBe("market_unquotable");
    const res = guard.filter(ctx(), QUOTES, 0);
    expect(res.allowed).toEqual([]);
    expect(res.decisions.map((d) => [d.reason, d.scope])).toEqual([["market_unquotable", "token"]]);
    expect(guard.onMarketUnquotable("mkt-1", undefined)).toBeUndefined();
    expect(guard.marketUnquotable("mkt-1")).toBeUndefined();
    expect(guard.filter(ctx(), QUOTES, 0).allowed).toEqual(QUOTES);
  });
});
