import { describe, expect, it } from "vitest";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { fakeWorld, makerFill, TOKEN } from "./support/recorder-world.js";

/*
 * The report's mark (PnL, drawdown, markouts) of a crossed or locked exchange book. The live engine
 * never marks there (core/mark.ts markAfterBook2: bid >= ask marks nothing, so the PnL does not
 * move), README calls a crossed recorded book the data's error (a stale level across a gap), and
 * the tracker flags it not quotable: the Recorder keeps the last uncrossed mid. (Found by review18:
 * on the imported Polymarket capture, whose last 493 rows are crossed, the bot's 10 shares bought
 * at 0.19 were marked at the crossed "mid" 0.18, PnL −0.1 and drawdown 0.25, where the last
 * uncrossed mid 0.20 gives +0.1 and 0.05.)
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
    w.fill(makerFill(1_000, "buy", 490_000n, 10_000_000n));
    w.book(2_000, 600_000, 500_000); // crossed
    w.book(3_000, 450_000, 450_000); // locked (README: counts as crossed)
    const s = buildRunSummary(rec.close(4_000), [TOKEN], noRequests());
    expect(s.tokens[0]?.mark).toBe("0.5");
    expect(s.pnl.total).toBe("0.1");
    expect(s.drawdown.max).toBe("0");
    expect(s.markouts[0]).toMatchObject({ fills: 1, total: "0.1" });
  });

  // A book only ever crossed is no two-sided book: the token is marked at its last fill, as one
  // whose book was never two-sided. Buy 10 @ 0.49 at 1 s, crossed 0.60/0.50 before and after:
  // mark 0.49, total 0 (the crossed "mid" 0.55 would say +0.60).
  it("leaves a token whose book was only ever crossed marked at its last fill", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, { sharpeIntervalMs: 60_000, markoutsMs: [1_000] }, 0);
    w.book(0, 600_000, 500_000);
    w.fill(makerFill(1_000, "buy", 490_000n, 10_000_000n));
    w.book(2_000, 600_000, 500_000);
    const s = buildRunSummary(rec.close(4_000), [TOKEN], noRequests());
    expect(s.tokens[0]?.mark).toBe("0.49");
    expect(s.pnl.total).toBe("0");
    expect(s.markouts[0]).toMatchObject({ fills: 1, total: "0" });
  });
});
