import { describe, expect, it } from "vitest";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { fakeWorld, makerFill, TOKEN } from "./support/recorder-world.js";

/*
 * A markout whose horizon passes the end of the data is unknown — unless the token's market
 * resolved with payouts by then: from the resolution on the token is worth its payout at every
 * later time, so mid(t + h) is the payout whether or not the data reaches t + h.
 *
 * Hand-worked: book 0.49 / 0.51, maker buy 10 @ 0.49 at 1 s, the market resolves YES (1 USDC a
 * share) at 3 s, the data ends at 5 s. 1 s horizon (2 s): mid 0.50 → +0.01 × 10 = 0.1. 10 s and
 * 60 s horizons (11 s, 61 s: past the end): the payout 1 → +0.51 × 10 = 5.1 each.
 */

const REPORT = { sharpeIntervalMs: 60_000, markoutsMs: [1_000, 10_000, 60_000] };

const BUY = makerFill(1_000, "buy", 490_000n, 10_000_000n);

describe("markouts past the end of the data", () => {
  it("are settled at the payout when the token's market resolved before the end", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, REPORT, 0);
    w.book(0, 490_000, 510_000);
    w.fill(BUY);
    w.resolve(3_000, 1_000_000);
    const s = buildRunSummary(rec.close(5_000), [TOKEN], noRequests());
    expect(s.markouts).toEqual([
      { horizonMs: 1_000, fills: 1, unresolved: 0, perShare: "0.01", total: "0.1" },
      { horizonMs: 10_000, fills: 1, unresolved: 0, perShare: "0.51", total: "5.1" },
      { horizonMs: 60_000, fills: 1, unresolved: 0, perShare: "0.51", total: "5.1" },
    ]);
  });

  it("stay unresolved when the market had not resolved by the end", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, REPORT, 0);
    w.book(0, 490_000, 510_000);
    w.fill(BUY);
    w.book(3_000, 600_000, 620_000);
    const s = buildRunSummary(rec.close(5_000), [TOKEN], noRequests());
    expect(s.markouts).toEqual([
      { horizonMs: 1_000, fills: 1, unresolved: 0, perShare: "0.01", total: "0.1" },
      { horizonMs: 10_000, fills: 0, unresolved: 1, perShare: null, total: "0" },
      { horizonMs: 60_000, fills: 0, unresolved: 1, perShare: null, total: "0" },
    ]);
  });

  it("of a fill after the resolution are settled at the payout too", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, REPORT, 0);
    w.book(0, 490_000, 510_000);
    w.resolve(500, 0); // NO: the token pays nothing
    w.fill(BUY); // a fill the venue booked after the resolution (a resting order's last match)
    const s = buildRunSummary(rec.close(5_000), [TOKEN], noRequests());
    expect(s.markouts.map((m) => [m.fills, m.unresolved, m.perShare])).toEqual([
      [1, 0, "-0.49"],
      [1, 0, "-0.49"],
      [1, 0, "-0.49"],
    ]);
  });
});
