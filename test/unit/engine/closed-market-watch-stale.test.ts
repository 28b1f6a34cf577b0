import { describe, expect, it } from "vitest";
import { Harness, T0 } from "./support/harness.js";
import { heldRecord } from "./support/settlement.js";

/**
 * ClosedMarketWatch reads the record of a market closed by its status once a minute. Its answer is
 * compared with the status *now* and, when it differs, applied as a push (engine.onMarketStatus).
 * A read answered after a push that arrived while it was in flight carries the status from before
 * that push: applied, a stale PAUSED un-settles a market the RESOLVED push had just settled (its
 * payout pin dropped, its positions back in every gross). Markets past their closesAt are not read
 * again, so a market resolved before its close stayed un-settled for the rest of the run. An answer
 * is now dropped when the status moved while it was out (found by review).
 */
const RISK = {
  inventory: { perMarket: { soft: "100", hard: "100" }, total: { soft: "5", hard: "100" } },
};

describe("ClosedMarketWatch: a record read answered after the RESOLVED push", () => {
  it("does not un-settle the resolved market (its traded shares stay out of the wallet's gross)", async () => {
    const h = new Harness({
      risk: RISK,
      latencyMs: 50,
      markets: 2,
      // Market 1 resolves early, before its closesAt (which then passes).
      closesAt: (i) => (i === 1 ? T0 + 90_000 : T0 + 3_600_000),
    });
    const [yes1, no1] = h.tokens(1);
    const [yes2, no2] = h.tokens(2);
    for (const t of [yes1, no1, yes2, no2]) h.crowdQuote(t, "0.48", "0.52");
    const record = heldRecord(h);
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    const m1 = h.markets[0]?.marketId ?? "";
    const before = h.botQuotes(yes2).sort();
    expect(before).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // The bot buys 10 YES of market 1: the wallet's gross (10) passes total.soft (5).
    h.take(yes1, "sell", "0.47", "110"); // the crowd's 100 at 0.48, then the bot's 10 at 0.47
    await h.run(2_000);
    expect(h.engine.positionOf(yes1)).toBe(10_000_000n);
    expect(h.botQuotes(yes2)).toEqual([]); // reduce-only and flat on market 2: nothing to quote

    // Market 1 is paused (a push): the watch reads its record at its next round.
    h.venue.setMarketStatus(m1, "PAUSED", { cancelOpenOrders: true });
    h.engine.onMarketStatus(m1, "PAUSED");
    await h.run(60_500); // the round a minute after the pause: its read is on its way
    expect(record.reads()).toBe(1);

    // The market resolves while that read is in flight: the push comes first ...
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    h.engine.onMarketStatus(m1, "RESOLVED", { "0": "1", "1": "0" });
    await h.run(1_000);
    const settledQuotes = h.botQuotes(yes2).sort();
    // ... then the read's answer, served before the resolution.
    record.answer({ status: "PAUSED" });
    await h.run(1_000);
    // Past market 1's closesAt nothing reads its record again: what the stale answer did stays.
    await h.run(120_000);
    expect(record.reads()).toBe(1);
    h.crowdQuote(yes2, "0.49", "0.53");
    await h.run(2_000);
    // Settled, market 1's shares count zero in the wallet's gross: market 2 quotes as it did once settled.
    expect(settledQuotes).toEqual(before);
    expect(h.botQuotes(yes2).sort(), "market 1 un-settled by the stale answer").toEqual([
      "buy 0.48 10",
      "sell 0.54 10",
    ]);
    expect(h.logs.text().includes("market is now PAUSED (its record"), "the stale answer applied").toBe(
      false,
    );
  });
});
