import { describe, expect, it } from "vitest";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { restartedAfterResolution } from "./support/settlement.js";

/**
 * A market listed CLOSED at start (its book watched but empty: no mid) that the closed-market watch
 * then finds RESOLVED without payouts is the listed-settled case met later: its books are retired
 * and it will never have a mid. Its restored position is marked at the journal's last mark, or the
 * earlier run's marked loss (20 × (0.30 − 0.47) = −3.4 USDC) would vanish from the PnL, for good if
 * the payouts never came.
 */
describe("a market closed at start, found resolved without payouts", () => {
  it("marks the restored position at its last journaled mark, as when listed settled", async () => {
    const h = restartedAfterResolution({
      status: "CLOSED",
      closesAt: () => undefined,
      restore: { marks: new Map([["11", 300_000]]) },
    });
    h.exchange.marketRecord = async (): Promise<MarketRecordStatus> => ({ status: "RESOLVED" });
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    await h.run(61_000);
    expect(h.logs.text()).toContain("market is now RESOLVED");
    expect(h.engine.status().pnlMicro, "at the journaled mark, not at cost").toBe(-3_400_000n);
  });
});
