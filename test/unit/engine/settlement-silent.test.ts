import { describe, expect, it } from "vitest";
import { BOT, Harness } from "./support/harness.js";
import {
  buyTenYes,
  expectOtherMarketQuoting,
  recordFromVenue,
  redeem,
  twoMarkets,
} from "./support/settlement.js";

/**
 * The spec says most lifecycle events are not yet emitted: a market can resolve without a push. The
 * bot then hears of it only as 409 `market_not_open` on a placement, or, when its book emptied and
 * nothing was placed, as a position drift (the redemption). The refusal gated it for a minute and
 * no more, and the redemption was corrected into inventory: the tokens went below their baseline,
 * the wallet's gross passed total.soft, the other market went reduce-only, and the bought shares'
 * payout left the PnL; every minute the bot probed the resolved market again. A refusal, and a
 * drift, now read the market's record; a settled record stands for the push that never came
 * (market-record-read.ts).
 */
describe("settlement: a market resolved without a push", () => {
  it("is settled from its record after a refusal: redemption in the baseline, payout in the PnL", async () => {
    const t = await twoMarkets();
    const { h, m1, yes1, no1 } = t;
    h.exchange.marketRecord = recordFromVenue(h);
    await buyTenYes(h, yes1);

    // Resolved without a push: the exchange ends our orders there; a requote is refused.
    h.silentStatus = true;
    h.venue.setMarketStatus(m1, "RESOLVED");
    h.venue.cancelAll(BOT, m1);
    await h.run(31_000); // the periodic reconcile finds them gone: the requote is refused 409
    expect(h.logs.text()).toContain("market is now RESOLVED (its record, read after the refusal)");
    // YES pays 1: 10 × (1 − 0.47) (maker fees 0).
    expect(h.engine.status().pnlMicro).toBe(5_300_000n);

    redeem(h, [yes1, no1]);
    await h.run(120_000); // position checks, and two of the refusal's minutes
    const logs = h.logs.text();
    expect(logs).not.toContain("positions corrected");
    expect(h.engine.positionOf(yes1)).toBe(10_000_000n);
    expect(h.engine.status().pnlMicro).toBe(5_300_000n);
    // Gated for good: nothing more is sent to the resolved market.
    expect(logs.match(/market refused a placement/g)?.length).toBe(1);
    await expectOtherMarketQuoting(t);
  });

  it("is settled from its record after a position drift, when nothing was refused (its book emptied)", async () => {
    const t = await twoMarkets();
    const { h, m1, yes1, no1 } = t;
    h.exchange.marketRecord = recordFromVenue(h);
    await buyTenYes(h, yes1);

    // Resolved without a push: every order there is cancelled, so its book is empty and the bot
    // has nothing to place (no refusal); then the redemption.
    h.silentStatus = true;
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    await h.run(1_000);
    redeem(h, [yes1, no1]);
    await h.run(120_000); // position checks: the first drift reads the record, before any correction
    const logs = h.logs.text();
    expect(logs).not.toContain("market refused a placement");
    expect(logs).toContain("market is now RESOLVED (its record, read after a position drift)");
    expect(logs).not.toContain("positions corrected");
    expect(h.engine.positionOf(yes1)).toBe(10_000_000n);
    expect(h.engine.status().pnlMicro).toBe(5_300_000n);
    await expectOtherMarketQuoting(t);
  });

  it("is left to the refusal's cool-down when its record says OPEN, or cannot be read", async () => {
    // A record saying PAUSED is taken as the status instead (market-paused-silently.test.ts).
    for (const record of ["OPEN", "unreadable"] as const) {
      const h = new Harness({ latencyMs: 50 });
      const [yes, no] = h.tokens(1);
      for (const t of [yes, no]) h.crowdQuote(t, "0.48", "0.52");
      const m1 = h.markets[0]?.marketId ?? "";
      h.exchange.marketRecord = async () => {
        if (record === "unreadable") throw new Error("503 exchange_unavailable");
        return { status: record };
      };
      const starting = h.engine.start();
      await h.run(500);
      await starting;
      h.silentStatus = true;
      h.venue.setMarketStatus(m1, "PAUSED");
      h.venue.cancelAll(BOT, m1);
      await h.run(31_000); // refused, gated for the cool-down
      expect(h.logs.text().match(/market refused a placement/g)?.length, record).toBe(1);
      if (record === "unreadable") expect(h.logs.text()).toContain("market's record unreadable");
      expect(h.logs.text()).not.toContain("market is now");
      await h.run(60_000); // the cool-down ends: quoting retries, refused again
      expect(h.logs.text().match(/market refused a placement/g)?.length, record).toBe(2);
    }
  });
});
