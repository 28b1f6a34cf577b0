import { describe, expect, it } from "vitest";
import type { TradeRecord } from "../../../src/exchange/types.js";
import { Harness } from "./support/harness.js";

/**
 * A fee resolves after settlement: user_fill never carries one, so it normally reaches the engine
 * through a REST reconcile (GET /api/me/trades) for a fill the WebSocket delivered earlier. The
 * engine's totals (PnL for the kill switch and status, gross exposure for the caps) must follow.
 */
describe("engine fees that settle after their fill", () => {
  it("status().pnlMicro includes a USDC fee that arrives after the fill", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "buy", "0.53", "105"); // 100 from the crowd, 5 from our ask at 0.53
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(-5_000_000n);
    expect(h.engine.status().pnlMicro).toBe(150_000n); // sold 5 at 0.53, marked at 0.50

    settleWith(h, { fee: "0.1" }); // 0.1 USDC on this SELL
    await h.engine.reconcileNow();
    await h.run();

    expect(h.engine.account(yes).feesPico).toBe(100_000_000_000n);
    expect(h.engine.status().pnlMicro).toBe(50_000n); // 0.15 − 0.10
    expect(h.eventsOf("fee")).toHaveLength(1);
  });

  it("a fee that turns a flat round trip into a loss trips the drawdown kill switch", async () => {
    const h = new Harness({ risk: { killSwitch: { maxDrawdown: "0.5" } } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "buy", "0.53", "105"); // we sell 5 at 0.53
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    h.take(yes, "sell", "0.47", "105"); // we buy 5 back at 0.47: flat, +0.30 realised
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.engine.positionOf(yes)).toBe(0n);
    expect(h.engine.status().pnlMicro).toBe(300_000n);

    // Both fills settle with 1 USDC of fee each (USDC on the buy too, so the position stays flat).
    settleWith(h, { fee: "1", feeAsset: "usdc" });
    await h.engine.reconcileNow();
    await h.run();
    h.crowdQuote(yes, "0.47", "0.51"); // the mid moves: a flat token's mark does not matter
    await h.run();

    expect(h.engine.account(yes).feesPico).toBe(2_000_000_000_000n);
    expect(h.engine.status().pnlMicro).toBe(-1_700_000n); // 0.30 − 2.00
    expect(h.engine.status().killSwitch).toBe(true); // 2.0 below the 0.3 peak > 0.5
    expect(h.botQuotes()).toEqual([]);
  });

  it("a BUY fee paid in shares moves the gross exposure the caps see", async () => {
    const risk = { inventory: { perMarket: { soft: "10", hard: "40" } } };
    const h = new Harness({ risk });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "sell", "0.47", "110"); // we buy 10: market gross 10 = soft, reduce-only
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.botQuotes(yes)).toEqual(["sell 0.53 10"]);

    // The BUY settles with a 1-share fee (the spec's asset for a buy): 9 held, below the soft cap.
    settleWith(h, { fee: "1" });
    await h.engine.reconcileNow();
    await h.run();

    expect(h.engine.positionOf(yes)).toBe(9_000_000n);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});

/** From now on the exchange's trade rows carry `fields` (the fee of a settled trade). */
function settleWith(h: Harness, fields: Partial<TradeRecord> & { feeAsset?: string }): void {
  const inner = h.exchange.trades.bind(h.exchange);
  h.exchange.trades = async (opts) => {
    const page = await inner(opts);
    return { ...page, trades: page.trades.map((t) => ({ ...t, ...fields })) };
  };
}
