import { describe, expect, it } from "vitest";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { fakeWorld, TOKEN, usdc } from "./support/recorder-world.js";

/*
 * Markouts of a token whose book was never two-sided, so its mark is its last fill's price
 * (README) and moves at fills, not only at market events: a markout uses the mark in force at
 * t + h, so horizons that came due before a fill are settled before that fill moves the mark (no
 * look-ahead to a later fill's price).
 *
 * Hand-worked (bids only, never two-sided): buy 1 @ 0.40 at 1 s, buy 1 @ 0.30 at 5 s, next book
 * frame at 20 s. At 2 s (1 s horizon of the first fill) the mark is 0.40 → markout 0; at 6 s
 * (second fill) 0.30 → 0. 1 s total 0. At 11 s (first fill, 10 s) 0.30 → −0.10; at 15 s 0.30 → 0.
 * 10 s total −0.10 over 2 shares.
 */

/** A taker buy of 1 share at `price` (micro) at `t`. */
const buy = (t: number, price: bigint) =>
  ({
    tsMs: t,
    side: "buy",
    role: "taker",
    price,
    quantity: 1_000_000n,
    notional: price,
    fee: usdc(0n),
  }) as const;

describe("markouts of a token marked at its last trade", () => {
  it("use the mark in force at t + h, not a later fill's price", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, { sharpeIntervalMs: 60_000, markoutsMs: [1_000, 10_000] }, 0);
    w.book(0, 400_000, undefined);
    w.fill(buy(1_000, 400_000n));
    w.fill(buy(5_000, 300_000n));
    w.book(20_000, 300_000, undefined);
    const s = buildRunSummary(rec.close(20_000), [TOKEN], noRequests());
    expect(s.markouts).toEqual([
      { horizonMs: 1_000, fills: 2, unresolved: 0, perShare: "0", total: "0" },
      { horizonMs: 10_000, fills: 2, unresolved: 0, perShare: "-0.05", total: "-0.1" },
    ]);
  });
});
