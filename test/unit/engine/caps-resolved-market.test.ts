import { describe, expect, it } from "vitest";
import { BOT, Harness } from "./support/harness.js";

/**
 * A resolved market's shares are settled: the exchange redeems them at the payout, so they carry no
 * price risk and must not count towards the wallet's gross. The redemption takes the shares the
 * wallet held at start out of the wallet; the position check then corrects those tokens below
 * their baseline (position −20 each, relative), and when that counted, the wallet's gross passed
 * `total.soft` and every other market turned reduce-only for good: a flat market quoted nothing
 * (the fault suite's "market resolved" scenario, ~1.6 s after the resolution).
 */
describe("caps: a resolved market's positions do not count towards the wallet's gross", () => {
  it("the redemption's correction leaves the other market quoting both sides", async () => {
    const risk = {
      inventory: { perMarket: { soft: "100", hard: "100" }, total: { soft: "15", hard: "100" } },
    };
    const h = new Harness({ risk, latencyMs: 50, markets: 2 });
    const [yes1, no1] = h.tokens(1);
    const [yes2, no2] = h.tokens(2);
    // Shares held at start: the baseline, not the bot's doing.
    h.venue.credit(BOT, yes1, 20_000_000n);
    h.venue.credit(BOT, no1, 20_000_000n);
    for (const t of [yes1, no1, yes2, no2]) h.crowdQuote(t, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // Market 1 resolves: the exchange cancels its orders and redeems the shares.
    h.venue.setMarketStatus(h.markets[0]?.marketId ?? "", "RESOLVED", { cancelOpenOrders: true });
    await h.run(500);
    h.venue.debit(BOT, yes1, 20_000_000n);
    h.venue.debit(BOT, no1, 20_000_000n);
    await h.run(61_000); // seen by two position checks: corrected
    expect(h.eventsOf("reconcile").some((e) => e.summary.corrections.length > 0)).toBe(true);
    expect(h.engine.positionOf(yes1)).toBe(-20_000_000n);

    h.crowdQuote(yes2, "0.49", "0.53");
    await h.run(2_000);
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
    expect(h.botQuotes(no2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});
