import { describe, expect, it } from "vitest";
import { RiskGuard } from "../../../src/risk/guard.js";
import { ctx, market, QUOTES, smallConfig } from "./helpers.js";

const CLOSE = 1_750_000_060_000;

describe("RiskGuard: a market past its closesAt", () => {
  it("is gated from the first millisecond after closesAt, by filter and by mustCancel", () => {
    const guard = new RiskGuard(smallConfig());
    const c = ctx({ market: { closesAtMs: CLOSE } });
    expect(guard.filter(c, QUOTES, CLOSE).allowed).toEqual(QUOTES);
    expect(guard.mustCancel("tok-yes", CLOSE)).toBeUndefined();
    const res = guard.filter(c, QUOTES, CLOSE + 1);
    expect(res.allowed).toEqual([]);
    expect(res.decisions.map((d) => [d.reason, d.scope])).toEqual([["market_not_open", "token"]]);
    expect(guard.mustCancel("tok-yes", CLOSE + 1)).toBe("market_not_open");
  });

  it("is gated before any filter call (watch), and an OPEN report does not lift it", () => {
    const guard = new RiskGuard(smallConfig());
    guard.watch(market({ closesAtMs: CLOSE }));
    expect(guard.mustCancel("tok-yes", CLOSE + 1)).toBe("market_not_open");
    guard.onMarketStatus("mkt-1", "OPEN");
    expect(guard.mustCancel("tok-yes", CLOSE + 10_000)).toBe("market_not_open");
  });

  it("a wallet gate still takes precedence", () => {
    const guard = new RiskGuard(smallConfig());
    guard.watch(market({ closesAtMs: CLOSE }));
    guard.onPlatformStatus(true);
    expect(guard.mustCancel("tok-yes", CLOSE + 1)).toBe("platform_frozen");
  });

  it("never gates a market without a closesAt", () => {
    const guard = new RiskGuard(smallConfig());
    guard.watch(market({ closesAtMs: undefined }));
    expect(guard.mustCancel("tok-yes", Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });

  it("onMarketClosed: one market cancel-all per market, with the close time", () => {
    const guard = new RiskGuard(smallConfig());
    expect(guard.onMarketClosed("mkt-1", CLOSE)).toEqual({
      reason: "market_not_open",
      action: "cancel",
      scope: "market",
      tokenId: undefined,
      marketId: "mkt-1",
      side: undefined,
      level: undefined,
      detail: { status: "CLOSED", closesAt: new Date(CLOSE).toISOString() },
    });
    expect(guard.onMarketClosed("mkt-1", CLOSE)).toBeUndefined();
    expect(guard.onMarketClosed("mkt-2", CLOSE)?.marketId).toBe("mkt-2");
  });
});
