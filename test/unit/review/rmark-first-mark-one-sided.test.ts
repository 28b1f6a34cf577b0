import { describe, expect, it } from "vitest";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { Harness } from "../engine/support/harness.js";

/*
 * review22 rmark: a restored position's FIRST mark taken from a one-sided book (core/mark.ts:
 * "no mark yet → that side's price"). A restored position's first mark of the run is not this run's
 * gain or loss (shiftForFirstMark moves the kill switch's peak by it), so a one-sided first mark buys
 * the kill switch nothing; but the move from that side's price to the first two-sided mid is then
 * counted as this run's PnL: a lone ask far above the later mid is a false drawdown (a false trip),
 * a lone bid below it a false gain that eats into a carried drawdown (the limit loosened).
 * Before 7870971 the first mark was the first two-sided mid, and neither happened.
 */

describe("review rmark: a restored position's first mark from one side of the book", () => {
  it("a restored long whose first book is a lone ask at 0.80, then a bid 0.20 (mid 0.50 = cost): no drawdown, no trip", async () => {
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      options: {
        restore: {
          accounts: new Map([["11", applyTrade(EMPTY_ACCOUNT, "buy", 500_000, 10_000_000n)]]),
          orders: new Map(),
        },
      },
    });
    const [yes] = h.tokens();
    h.crowdOrder(yes, "sell", "0.80", "100");
    await h.engine.start();
    await h.run();
    // The thin market's crowd bids at 0.20: the first two-sided mid is 0.50, the long's cost.
    h.crowdOrder(yes, "buy", "0.20", "100");
    await h.run(1_000);
    expect(h.engine.markOf(yes)).toBe(500_000);
    // Nothing was lost this run: the market's price never moved, a bid merely appeared.
    expect(h.engine.status().drawdownMicro).toBe(0n);
    expect(h.engine.status().killSwitch).toBe(false);
  });

  it("a restored long with a carried drawdown of 0.8, the book rebuilt one order at a time (bid 0.48, then ask 0.52): the 0.8 stays used", async () => {
    // The pre-7870971 form of engine-kill-switch-carry's first case: the harness's empty snapshot,
    // then the crowd's bid and ask as separate deltas (a thin book refilled after a restart).
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      options: {
        restore: {
          accounts: new Map([["11", applyTrade(EMPTY_ACCOUNT, "buy", 600_000, 10_000_000n)]]),
          orders: new Map(),
          carriedDrawdown: { drawdownMicro: 800_000n },
        },
      },
    });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.engine.markOf(yes)).toBe(500_000);
    // The lone bid 0.48 was the first mark; the rise to 0.50 counted as a 0.2 gain of this run,
    // so the carried 0.8 read 0.6: a later fall of 0.35 would not trip a 1 USDC switch.
    expect(h.engine.status()).toMatchObject({
      killSwitch: false,
      pnlMicro: -1_000_000n,
      drawdownMicro: 800_000n,
    });
  });
});
