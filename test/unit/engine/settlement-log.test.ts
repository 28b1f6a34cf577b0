import { describe, expect, it } from "vitest";
import { buyTenYes, twoMarkets, YES_WINS } from "./support/settlement.js";

/**
 * On the mock exchange a resolution logged "market is now RESOLVED" twice (its market_status push and
 * its market_resolved push each did), and no line told the outcome. The engine now logs a status
 * once, when it changes, and the payouts' marks in one line: each token's payout and position, and
 * what that did to the PnL (engine-settlement.ts).
 */
/** Lines at info or above. */
const loud = (records: Record<string, unknown>[]) => records.filter((r) => Number(r.level) >= 30);

describe("settlement: the resolution's log lines", () => {
  it("logs the new status once for a market_status push then a market_resolved push, and the payouts once", async () => {
    const { h, m1, yes1 } = await twoMarkets();
    await buyTenYes(h, yes1);
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true }); // market_status, no payouts
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS); // market_resolved
    await h.run(1_000);
    const records = h.logs.records();
    const nowResolved = records.filter((r) => String(r.msg).startsWith("market is now RESOLVED"));
    expect(nowResolved).toHaveLength(1);
    expect(nowResolved[0]).toMatchObject({ level: 40, marketId: m1, status: "RESOLVED", previous: "OPEN" });

    const paid = records.filter((r) => r.msg === "settled market marked at its payouts");
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      level: 30,
      marketId: m1,
      tokens: [
        { tokenId: "11", outcome: "YES", payout: "1", position: "10" },
        { tokenId: "12", outcome: "NO", payout: "0", position: "0" },
      ],
      // From 10 × (0.50 − 0.47) at the mid to 10 × (1 − 0.47) (maker fees 0).
      pnlChange: "5",
      pnl: "5.3",
    });
  });

  it("logs nothing new for a repeated push (same status, same payouts)", async () => {
    const { h, m1 } = await twoMarkets();
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    await h.run(1_000);
    const before = loud(h.logs.records()).length;
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    h.engine.onMarketStatus(m1, "RESOLVED");
    await h.run(1_000);
    expect(loud(h.logs.records()).slice(before)).toEqual([]);
  });
});
