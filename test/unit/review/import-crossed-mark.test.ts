import { describe, expect, it } from "vitest";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { fakeWorld, TOKEN, usdc } from "../backtest/support/recorder-world.js";

/*
 * review18 (rv-import): the replay's Recorder marks positions at the mid of a crossed (or locked)
 * exchange book. The live engine never marks there (EngineTokens.observeBook: bid >= ask → no
 * mid, so neither σ nor the PnL moves), README calls a crossed recorded book the data's error
 * (a stale level across a gap), and the tracker flags it not quotable. On the imported Polymarket
 * capture the last 493 rows are crossed (stale bid 0.19 over asks down to 0.17): the summary marks
 * the bot's 10 shares bought at 0.19 at 0.18 (PnL −0.1, drawdown 0.25) where the last uncrossed
 * mid, 0.20 (bid 0.19 / ask 0.21), gives +0.1 and a drawdown of 0.05.
 *
 * Hand-worked: book 0.49/0.51 (mid 0.50); maker buy 10 @ 0.49 at 1 s (equity +0.10);
 * a crossed book 0.60/0.50 at 2 s (its "mid" 0.55 would say +0.60); a locked book 0.45/0.45 at
 * 3 s (0.45 would say −0.40); close at 4 s. The mark stays 0.50: total 0.10, drawdown 0,
 * 1 s markout +0.01 × 10 = 0.10.
 */
describe("a crossed or locked exchange book", () => {
  it("does not mark positions (the last uncrossed two-sided mid stays the mark)", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, { sharpeIntervalMs: 60_000, markoutsMs: [1_000] }, 0);
    w.book(0, 490_000, 510_000);
    w.fill({
      tsMs: 1_000,
      side: "buy",
      role: "maker",
      price: 490_000n,
      quantity: 10_000_000n,
      notional: 4_900_000n,
      fee: usdc(0n),
    });
    w.book(2_000, 600_000, 500_000); // crossed
    w.book(3_000, 450_000, 450_000); // locked (README: counts as crossed)
    const s = buildRunSummary(rec.close(4_000), [TOKEN], noRequests());
    expect(s.tokens[0]?.mark).toBe("0.5");
    expect(s.pnl.total).toBe("0.1");
    expect(s.drawdown.max).toBe("0");
    expect(s.markouts[0]).toMatchObject({ fills: 1, total: "0.1" });
  });
});
