import { describe, expect, it } from "vitest";
import { redeem, twoMarkets, YES_WINS } from "./support/settlement.js";

/**
 * Found end to end by review (mm mock --admin, mm run, resolve-market): after a resolution with a
 * push, the redemption is followed into the baseline ("settled market's shares redeemed"), not
 * corrected, yet the reconcile summary listed both tokens under `corrections`. So
 * mm_reconcile_drift_corrected_total went up by 2 at every resolution (MmReconcilerDrift fired:
 * "Inventory was set to the exchange's figure; check the logs ('positions corrected')", a line that
 * is not there), and the daemon's log said "corrections: 2". ReconcileSummary.corrections is
 * documented as "Drifts seen twice identically and corrected in inventory"; it now holds only those
 * (not the redeemed ones, nor those held for a record read).
 */
describe("settlement: a followed redemption in the reconcile summary", () => {
  it("is not reported as a correction (no drift-corrected count, no MmReconcilerDrift)", async () => {
    const { h, m1, yes1, no1 } = await twoMarkets();
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    await h.run(500);
    redeem(h, [yes1, no1]);
    await h.run(61_000); // two position checks

    expect(h.logs.text()).toContain("settled market's shares redeemed");
    expect(h.logs.text()).not.toContain("positions corrected");
    const reported = h.eventsOf("reconcile").flatMap((e) => e.summary.corrections.map((c) => c.tokenId));
    expect(reported, "a followed redemption reported as an inventory correction").toEqual([]);
  });
});
