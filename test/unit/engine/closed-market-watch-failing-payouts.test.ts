import { describe, expect, it } from "vitest";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import { Harness } from "./support/harness.js";

/**
 * The closed-market watch reads one market at a time and ends a round at the first failed read. A
 * settled market whose payouts are unknown and whose record cannot be read (an exchange that 5xxs
 * the record of a resolved market, say) is read after the markets closed by their status, so a
 * PRE_MARKET market that opens silently is still seen to open; and its failures count towards the
 * day's bound, so it is not read a minute for ever. (A review found both.)
 */
describe("closed-market watch: a settled market whose record read keeps failing", () => {
  it("does not keep a PRE_MARKET market listed after it from being read (and opened)", async () => {
    const h = new Harness({
      latencyMs: 50,
      markets: 2,
      // Market 1 listed RESOLVED without payoutNumerators (awaiting them); market 2 PRE_MARKET.
      status: (i) => (i === 1 ? "RESOLVED" : "PRE_MARKET"),
    });
    const m1 = h.markets[0]?.marketId ?? "";
    const m2 = h.markets[2]?.marketId ?? "";
    expect(m2).not.toBe(m1);
    const reads = new Map<string, number>();
    h.exchange.marketRecord = async ({ marketId }): Promise<MarketRecordStatus> => {
      reads.set(marketId, (reads.get(marketId) ?? 0) + 1);
      if (marketId === m1) throw new Error("503 from GET /api/markets/{slug}");
      return { status: "OPEN" }; // market 2 opened silently
    };
    const starting = h.engine.start();
    await h.run(500);
    await starting;

    await h.run(5 * 60_000);
    expect(reads.get(m2) ?? 0, "market 2's record was never read").toBeGreaterThan(0);
    expect(h.logs.text()).toContain("market is now OPEN (its record, read while it was closed)");

    // A day after its first read it is no longer read, failing or not.
    await h.run(24 * 3_600_000);
    const inADay = reads.get(m1) ?? 0;
    await h.run(3_600_000);
    expect(reads.get(m1)).toBe(inADay);
    expect(h.logs.text()).toContain("settled market's payouts not read in a day");
  });
});
