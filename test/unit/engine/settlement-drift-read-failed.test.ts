import { describe, expect, it } from "vitest";
import { BOT, Harness } from "./support/harness.js";

/**
 * A market resolved without a push and its book emptied (nothing refused): the redemption's drift
 * is the only sign. Its first sighting reads the market's record; the second sighting corrects the
 * drift into inventory at once, in the same reconcile, before that run's own read answers. When the
 * first read fails (one transient 5xx, a timeout, a 429 of the ip bucket), the redemption is
 * corrected into inventory (positions −start holdings, other market reduce-only), and then the
 * second sighting's read, answering RESOLVED with payouts, settles the market and PINS the
 * corrected short at the payout: a phantom PnL equal to the resolution's move on the holdings at
 * start, which the kill switch watches. Here the wallet held 20 YES at start and bought 10 more at
 * 0.47; YES pays 1. The session's PnL is 10 × (1 − 0.47) = 5.3; after the corrected short (−20 YES,
 * entered at the mark 0.50) is pinned at 1, it reads −10 (the 10 bought shares left at cost, and a
 * 10 USDC loss that is the start holdings' gain, booked with the wrong sign).
 */
const RISK = {
  inventory: { perMarket: { soft: "100", hard: "100" }, total: { soft: "15", hard: "100" } },
};

describe("settlement: a silent resolution whose first record read failed", () => {
  it("does not correct the redemption into inventory and then pin the corrected short (phantom PnL)", async () => {
    const h = new Harness({ risk: RISK, latencyMs: 50, markets: 2 });
    const [yes1, no1] = h.tokens(1);
    const [yes2, no2] = h.tokens(2);
    h.venue.credit(BOT, yes1, 20_000_000n); // held at start: in the baseline, not the session's PnL
    for (const t of [yes1, no1, yes2, no2]) h.crowdQuote(t, "0.48", "0.52");
    const m1 = h.markets[0]?.marketId ?? "";
    let reads = 0;
    h.exchange.marketRecord = async ({ marketId }) => {
      reads += 1;
      if (reads === 1) throw new Error("503 exchange_unavailable"); // one transient failure
      const status = h.venue.market(marketId)?.status ?? "OPEN";
      return status === "RESOLVED" ? { status, payouts: { "0": "1", "1": "0" } } : { status };
    };
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    h.take(yes1, "sell", "0.47", "110"); // we buy 10 YES at 0.47
    await h.run(2_000);
    expect(h.engine.positionOf(yes1)).toBe(10_000_000n);

    h.silentStatus = true;
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    await h.run(1_000);
    for (const t of [yes1, no1]) {
      const held = h.venue.positions(BOT).find((p) => p.tokenId === t)?.available ?? 0n;
      if (held > 0n) h.venue.debit(BOT, t, held);
    }
    await h.run(120_000);
    const logs = h.logs.text();
    expect(logs).toContain("market's record unreadable");
    expect(logs).toContain("market is now RESOLVED (its record, read after a position drift)");
    // YES pays 1: 10 × (1 − 0.47); the holdings at start are not the session's PnL.
    expect(h.engine.status().pnlMicro, "phantom PnL from the pinned correction").toBe(5_300_000n);
    expect(logs, "the redemption was corrected into inventory").not.toContain("positions corrected");
    h.crowdQuote(yes2, "0.49", "0.53");
    await h.run(2_000);
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.48 10", "sell 0.54 10"]);
    expect(h.botQuotes(no2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});
