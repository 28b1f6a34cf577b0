import { describe, expect, it } from "vitest";
import { redeem, twoMarkets, YES_WINS } from "./support/settlement.js";

/**
 * A placement in flight when the RESOLVED push arrives is answered 409 market_not_open. That refusal
 * was reported as a status (NOT_OPEN) over the push's: it un-settled the market, so the redemption's
 * drift went into inventory, the tokens went below their baseline and the other market turned
 * reduce-only; and a minute later the refusal's cool-down reported the resolved market OPEN, and
 * quoting retried there every minute. A push's non-OPEN status now stands against later refusals
 * (MarketRefusals).
 */
describe("settlement: a refusal answered after the RESOLVED push", () => {
  it("does not un-settle the market (the redemption still moves the baseline, the other market quotes both sides)", async () => {
    const { h, m1, yes1, no1, yes2 } = await twoMarkets();
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // The book moves: the bot requotes market 1; its placements are on their way (50 ms) ...
    h.crowdQuote(yes1, "0.49", "0.53");
    await h.run(10);
    // ... when the market resolves (the exchange cancels its orders, the push comes at once).
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    await h.run(500);
    // The placement in flight when the market resolved is refused 409 market_not_open.
    expect(/"code":"market_not_open".*"msg":"placement rejected"/.test(h.logs.text())).toBe(true);

    redeem(h, [yes1, no1]);
    await h.run(61_000); // two position checks, and the refusal's cool-down
    const logs = h.logs.text();
    expect(logs.includes("positions corrected"), "the redemption was corrected into inventory").toBe(false);
    expect(h.engine.positionOf(yes1)).toBe(0n);
    // Nor is the resolved market reported OPEN again when the refusal's cool-down ends.
    expect(/"tokenId":"11","marketId":"m1","msg":"risk: cleared"/.test(logs), "m1 reopened").toBe(false);
    h.crowdQuote(yes2, "0.49", "0.53");
    await h.run(2_000);
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
  });
});
