import { describe, expect, it } from "vitest";
import type { MarketRecordStatus } from "../../../src/engine/ports.js";
import type { Harness } from "./support/harness.js";
import {
  buyTenYes,
  heldRecord,
  restartedAfterResolution,
  SETTLEMENT_RISK,
  twoMarkets,
  YES_WINS,
} from "./support/settlement.js";

/**
 * A market settled without its payouts (a market_status push carries none, nor may market_resolved;
 * a record listed settled at start may have no payoutNumerators yet) kept its tokens marked at the
 * last book mid for good: nothing read the payouts later, so the PnL (and the kill switch) never
 * saw the resolution. The closed-market watch now reads such a market's record once a minute until
 * it carries payouts, which pin the marks as a push's would, and stops after a day of answers
 * without them.
 */
const NO_WINS = { "0": "0", "1": "1" } as const;

/** The bound: a day of answers without payouts (PAYOUT_READS_GIVE_UP_MS). */
const DAY_MS = 24 * 3_600_000;

/** A record read that counts its calls and answers `answer()`. */
function countingRecord(h: Harness, answer: () => MarketRecordStatus): { reads: () => number } {
  let reads = 0;
  h.exchange.marketRecord = async () => {
    reads++;
    return answer();
  };
  return { reads: () => reads };
}

describe("settlement: a market resolved without payouts", () => {
  it("is marked at its payouts once its record carries them: PnL moved, kill switch sees it, reads stop", async () => {
    const { h, m1, yes1 } = await twoMarkets({
      harness: { risk: { ...SETTLEMENT_RISK, killSwitch: { maxDrawdown: "1" } } },
    });
    let payouts: Record<string, string> | undefined;
    const record = countingRecord(h, () =>
      payouts === undefined ? { status: "RESOLVED" } : { status: "RESOLVED", payouts },
    );
    await buyTenYes(h, yes1);
    const atMid = h.engine.status().pnlMicro; // 10 × (0.50 − 0.47), marked at the mid

    // market_status RESOLVED (pushed by the harness): settled, no payouts.
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    await h.run(61_000);
    expect(record.reads()).toBe(1); // the record has none yet either
    expect(h.engine.status().pnlMicro).toBe(atMid);

    payouts = NO_WINS;
    await h.run(60_000);
    expect(record.reads()).toBe(2);
    // NO wins: 10 × (0 − 0.47) (maker fees 0), 5 below the peak: the kill switch trips.
    expect(h.engine.status()).toMatchObject({ pnlMicro: -4_700_000n, killSwitch: true });
    expect(h.logs.text()).toContain("settled market marked at its payouts (its record, read while");
    await h.run(300_000);
    expect(record.reads(), "a market whose payouts are known is read again").toBe(2);
  });

  it("listed resolved at start without payoutNumerators: marked once its record carries them", async () => {
    // The earlier run bought 20 YES of market 1 at 0.47 (the journal carries them over).
    const h = restartedAfterResolution({ risk: SETTLEMENT_RISK });
    const record = countingRecord(h, () => ({ status: "RESOLVED", payouts: YES_WINS }));
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.engine.status().pnlMicro).toBe(0n); // no book, no payout: no mark
    await h.run(60_000);
    expect(record.reads()).toBe(1);
    expect(h.engine.status().pnlMicro).toBe(10_600_000n); // 20 × (1 − 0.47)
    await h.run(180_000);
    expect(record.reads()).toBe(1);
  });

  it("is no longer read a day after its first read without payouts (logged once)", async () => {
    const { h, m1, yes1 } = await twoMarkets();
    const record = countingRecord(h, () => ({ status: "RESOLVED" }));
    await buyTenYes(h, yes1);
    const atMid = h.engine.status().pnlMicro;
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    await h.run(1_000);

    // A read a minute: the first at 1 min, the last one a minute short of a day after it.
    const perDay = DAY_MS / 60_000;
    await h.run(DAY_MS + 120_000);
    expect(record.reads()).toBe(perDay);
    await h.run(3_600_000);
    expect(record.reads()).toBe(perDay);
    const gaveUp = h.logs
      .records()
      .filter((r) => String(r.msg).startsWith("settled market's payouts not read in a day"));
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]).toMatchObject({ level: 40, marketId: m1 });
    expect(h.engine.status().pnlMicro).toBe(atMid); // still at the last mid

    // A market_resolved push with the payouts still marks the tokens.
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    await h.run(1_000);
    expect(h.engine.status().pnlMicro).toBe(5_300_000n);
  });

  it("drops an answer the market_resolved push overtook (the push's payouts stand), and reads no more", async () => {
    const { h, m1, yes1 } = await twoMarkets();
    const record = heldRecord(h);
    await buyTenYes(h, yes1);
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    await h.run(60_500);
    expect(record.reads()).toBe(1); // on its way
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    await h.run(100);
    record.answer({ status: "RESOLVED", payouts: NO_WINS });
    await h.run(300_000);
    expect(h.engine.status().pnlMicro).toBe(5_300_000n);
    expect(record.reads()).toBe(1);
  });
});
