import { describe, expect, it } from "vitest";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { fakeWorld, makerFill, TOKEN } from "./support/recorder-world.js";

/*
 * The report's mark (PnL, drawdown, markouts) of a one-sided exchange book, by the live engine's
 * rule (core/mark.ts markAfterBook2; review22, walkedge): the side that is left bounds the last
 * mark, so a long is worth no more than the best ask and a short costs no less than the best bid
 * to buy back. Before, the mark stayed at the last two-sided mid and a collapse read as a gain.
 */
const SETTINGS = { sharpeIntervalMs: 60_000, markoutsMs: [1_000] };

describe("a one-sided exchange book", () => {
  // Book 0.49/0.51 (mid 0.50); maker buy 10 @ 0.49 at 1 s (+0.10); at 2 s every bid is gone and the
  // asks sit at 0.02: mark 0.02, total 10 × (0.02 − 0.49) = −4.7, drawdown 0.10 + 4.7 = 4.8, the 1 s
  // markout −4.7 (the 0.50 mid would still say +0.10 and drawdown 0).
  it("bounds a long by the asks left when the bids vanish", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, SETTINGS, 0);
    w.book(0, 490_000, 510_000);
    w.fill(makerFill(1_000, "buy", 490_000n, 10_000_000n));
    w.book(2_000, undefined, 20_000);
    const s = buildRunSummary(rec.close(4_000), [TOKEN], noRequests());
    expect(s.tokens[0]?.mark).toBe("0.02");
    expect(s.pnl.total).toBe("-4.7");
    expect(s.drawdown.max).toBe("4.8");
    expect(s.markouts[0]).toMatchObject({ fills: 1, total: "-4.7" });
  });

  // Maker sell 10 @ 0.51 at 1 s (+0.10 at the mid 0.50); at 2 s the asks are gone and the bids sit at
  // 0.98: mark 0.98, total 10 × (0.51 − 0.98) = −4.7. A bid below the mark (0.40 at 3 s) leaves it.
  it("bounds a short by the bids left when the asks vanish, and keeps a mark the side left allows", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, SETTINGS, 0);
    w.book(0, 490_000, 510_000);
    w.fill(makerFill(1_000, "sell", 510_000n, 10_000_000n));
    w.book(2_000, 980_000, undefined);
    w.book(3_000, 400_000, undefined);
    const s = buildRunSummary(rec.close(4_000), [TOKEN], noRequests());
    expect(s.tokens[0]?.mark).toBe("0.98");
    expect(s.pnl.total).toBe("-4.7");
    expect(s.drawdown.max).toBe("4.8");
  });

  // Never two-sided: the first one-sided book (asks at 0.60) gives no mark (core/mark.ts: half a
  // price is never a first mark; review22 rmark), a fill (buy 10 @ 0.40 at 1 s) marks at its price,
  // and the asks falling to 0.30 at 2 s bound that: total 10 × (0.30 − 0.40) = −1.
  it("gives a token whose book was never two-sided no mark from one side, marks its fills, and bounds those", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, SETTINGS, 0);
    w.book(0, undefined, 600_000);
    expect(rec.mid2(TOKEN.tokenId)).toBeUndefined();
    w.fill(makerFill(1_000, "buy", 400_000n, 10_000_000n));
    expect(rec.mid2(TOKEN.tokenId)).toBe(800_000n);
    w.book(2_000, undefined, 300_000);
    const s = buildRunSummary(rec.close(4_000), [TOKEN], noRequests());
    expect(s.tokens[0]?.mark).toBe("0.3");
    expect(s.pnl.total).toBe("-1");
  });
});
