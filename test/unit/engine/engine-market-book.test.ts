import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";
import { Harness } from "./support/harness.js";

/**
 * A strategy that rests one bid inside the crowd's spread (so our own order becomes the book's best
 * bid) and records the σ the engine hands it.
 */
function bidOnly(tokenId: string, priceMicro: number): ConfiguredStrategy & { seen: (number | undefined)[] } {
  const seen: (number | undefined)[] = [];
  return {
    name: "bid-only",
    params: {},
    seen,
    quote(ctx: StrategyContext): DesiredQuote[] {
      if (ctx.market.tokenId !== tokenId) return [];
      seen.push(ctx.volatility);
      return [{ side: "buy", level: 0, priceMicro, sizeMicro: 10_000_000n }];
    },
  };
}

describe("engine: σ and the PnL mark follow the market without our orders", () => {
  it("reports σ = 0 while the market without us never moves (own bid at the touch shifts only the gross mid)", async () => {
    const s = bidOnly("11", 500_000); // market 1's YES token (Harness.tokens(1)[0])
    const h = new Harness({
      configured: s,
      latencyMs: 50,
      options: { volatility: { halfLifeMs: 1_000, minSamples: 1 } },
    });
    const [yes] = h.tokens();
    expect(yes).toBe("11");
    // The crowd (the whole market apart from us) sits at 0.40 / 0.60 for the entire test: mid 0.50.
    h.crowdQuote(yes, "0.40", "0.60");
    const starting = h.engine.start();
    await h.run(2_000);
    await starting;
    await h.run(1_000);
    expect(h.botQuotes(yes)).toEqual(["buy 0.5 10"]);
    // Time passes; the crowd adds size behind its own levels (no price change), so the engine re-reads the book.
    h.crowdOrder(yes, "buy", "0.40", "5");
    await h.run(1_000);
    h.crowdOrder(yes, "sell", "0.60", "5");
    await h.run(1_000);
    // The strategy context's book is net of our orders (mid 0.50 throughout), so the σ it gets must be
    // that of the same market: 0. The estimator is fed the gross book, where our 0.50 bid lifted the
    // mid to 0.55 once it rested, a "return" of 0.05 the market never made.
    const reported = s.seen.filter((v): v is number => v !== undefined);
    expect(reported.length).toBeGreaterThan(0);
    expect(Math.max(...reported)).toBe(0);
  });

  it("marks a position at the market's mid, not at one our own resting bid lifts", async () => {
    const s = bidOnly("11", 500_000);
    const h = new Harness({ configured: s, latencyMs: 50 });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.40", "0.60");
    const starting = h.engine.start();
    await h.run(2_000);
    await starting;
    await h.run(1_000);
    expect(h.botQuotes(yes)).toEqual(["buy 0.5 10"]);
    // A seller takes our bid: long 10 at 0.50; the strategy bids 0.50 again, our bid is the touch.
    h.crowdOrder(yes, "sell", "0.50", "10");
    await h.run(2_000);
    expect(h.botQuotes(yes)).toEqual(["buy 0.5 10"]);
    // The market without us is still 0.40 / 0.60: mid 0.50, so the long 10 bought at 0.50 is worth
    // what it cost. Marked at the exchange's mid with our bid in it (0.55) it showed +0.5 USDC.
    expect(h.engine.status().pnlMicro).toBe(0n);
  });
});
