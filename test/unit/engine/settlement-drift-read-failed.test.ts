import { describe, expect, it } from "vitest";
import {
  buyTenYes,
  expectOtherMarketQuoting,
  recordFromVenue,
  redeem,
  twoMarkets,
} from "./support/settlement.js";

/**
 * A market resolved without a push and its book emptied (nothing refused): the redemption's drift
 * is the only sign. Its first sighting read the market's record, and the second sighting corrected
 * the drift into inventory at once, before that run's own read answered. When the first read failed
 * (one transient 5xx, a timeout, a 429 of the ip bucket), the redemption was corrected into
 * inventory (positions −start holdings, other market reduce-only), and then the second sighting's
 * read, answering RESOLVED with payouts, settled the market and PINNED the corrected short at the
 * payout: a phantom PnL equal to the resolution's move on the holdings at start, which the kill
 * switch watches. Here the wallet held 20 YES at start and bought 10 more at 0.47; YES pays 1. The
 * session's PnL is 10 × (1 − 0.47) = 5.3; with the corrected short (−20 YES, entered at the mark
 * 0.50) pinned at 1, it read −10. A drift is now corrected only once a read made for it answered
 * "not settled" (DriftRecordGate; found by review).
 */
describe("settlement: a silent resolution whose first record read failed", () => {
  it("does not correct the redemption into inventory and then pin the corrected short (phantom PnL)", async () => {
    const t = await twoMarkets({ held: { yes: 20_000_000n, no: 0n } });
    const { h, m1, yes1, no1 } = t;
    let reads = 0;
    const record = recordFromVenue(h);
    h.exchange.marketRecord = async (m) => {
      reads += 1;
      if (reads === 1) throw new Error("503 exchange_unavailable"); // one transient failure
      return record(m);
    };
    await buyTenYes(h, yes1);

    h.silentStatus = true;
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    await h.run(1_000);
    redeem(h, [yes1, no1]);
    await h.run(120_000);
    const logs = h.logs.text();
    expect(logs).toContain("market's record unreadable");
    expect(logs).toContain("market is now RESOLVED (its record, read after a position drift)");
    // YES pays 1: 10 × (1 − 0.47); the holdings at start are not the session's PnL.
    expect(h.engine.status().pnlMicro, "phantom PnL from the pinned correction").toBe(5_300_000n);
    expect(logs, "the redemption was corrected into inventory").not.toContain("positions corrected");
    await expectOtherMarketQuoting(t);
  });
});
