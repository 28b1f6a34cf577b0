import { describe, expect, it } from "vitest";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { BOT, Harness } from "./support/harness.js";
import {
  buyTenYes,
  expectOtherMarketQuoting,
  redeem,
  restartedAfterResolution,
  SETTLEMENT_RISK,
  twoMarkets,
  YES_WINS,
} from "./support/settlement.js";

/**
 * A resolved market's shares are settled: the exchange redeems them at the payout, so they carry no
 * price risk and must not count towards the wallet's gross. The redemption takes the wallet's shares
 * out of the wallet. When the position check corrected that into inventory, the tokens went below
 * their baseline (position −20 each, relative), the wallet's gross passed `total.soft` and every
 * other market turned reduce-only for good: a flat market quoted nothing (the fault suite's
 * "market resolved" scenario, ~1.6 s after the resolution). And the shares the bot had bought left
 * at their cost, so their payout never reached the PnL. The baseline now follows a settled token's
 * holding (engine-settlement.ts, PositionBook.followRedemption), and the payouts pin the mark.
 */
/** Market 1 resolves YES: the exchange cancels its orders, then redeems every share of it. */
async function resolveAndRedeem(h: Harness, yes1: string, no1: string, payouts?: Record<string, string>) {
  const m1 = h.markets[0]?.marketId ?? "";
  h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
  if (payouts !== undefined) h.engine.onMarketStatus(m1, "RESOLVED", payouts); // the market_resolved push
  await h.run(500);
  redeem(h, [yes1, no1]);
  await h.run(61_000); // seen by two position checks
}

describe("a resolved market's positions", () => {
  it("do not count towards the wallet's gross: the redemption leaves the other market quoting both sides", async () => {
    const t = await twoMarkets();
    const { h, yes1, no1, yes2 } = t;
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    await resolveAndRedeem(h, yes1, no1);
    expect(h.logs.text()).toContain("settled market's shares redeemed");
    expect(h.logs.text()).not.toContain("positions corrected");
    expect(h.engine.positionOf(yes1)).toBe(0n);
    await expectOtherMarketQuoting(t);
  });

  it("are worth their payout: bought shares keep it in the PnL after the redemption", async () => {
    const { h, yes1, no1 } = await twoMarkets();
    await buyTenYes(h, yes1);
    const fees = -h.engine.status().pnlMicro + 10n * (500_000n - 470_000n); // marked at 0.50 until now

    await resolveAndRedeem(h, yes1, no1, YES_WINS);
    // 10 × (1 − 0.47), whatever the book shows later.
    expect(h.engine.status().pnlMicro).toBe(5_300_000n - fees);
    expect(h.engine.positionOf(yes1)).toBe(10_000_000n);
    h.crowdQuote(yes1, "0.10", "0.20");
    await h.run(1_000);
    expect(h.engine.status().pnlMicro).toBe(5_300_000n - fees);
  });
});

describe("a market listed resolved at start (a restart after its resolution)", () => {
  it("counts nothing towards the wallet's gross: its carried position leaves the other market quoting", async () => {
    // The earlier run bought 20 YES of market 1 (the journal carries them over).
    const h = restartedAfterResolution({ risk: SETTLEMENT_RISK });
    const [yes1] = h.tokens(1);
    const [yes2, no2] = h.tokens(2);
    expect(yes1).toBe("11");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.engine.positionOf(yes1)).toBe(20_000_000n);
    expect(h.botQuotes(yes2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    expect(h.botQuotes(no2).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});

describe("a market listed resolved with payouts at start", () => {
  it("marks its tokens at the record's payouts: the carried position's PnL is its payout less its cost", async () => {
    const h = new Harness({
      latencyMs: 50,
      status: () => "RESOLVED",
      payouts: () => ({ "0": "1", "1": "0" }),
      options: {
        restore: {
          accounts: new Map([["11", applyTrade(EMPTY_ACCOUNT, "buy", 470_000, 20_000_000n)]]),
          orders: new Map(),
        },
      },
    });
    const [yes] = h.tokens(1);
    h.venue.credit(BOT, yes, 20_000_000n);
    h.crowdQuote(yes, "0.10", "0.20"); // a book left behind: the payout marks, not its mid
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    expect(h.engine.status().pnlMicro).toBe(20n * (1_000_000n - 470_000n));
  });
});
