import { describe, expect, it } from "vitest";
import { Timeline } from "../../../src/backtest/report/html/timeline.js";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { fakeWorld, TOKEN, usdc } from "./support/recorder-world.js";

/*
 * The HTML report's per-market "mark" line for a token whose book was never two-sided. The
 * Recorder marks such a token at its last fill's price (README), and the equity chart and the JSON
 * summary use that mark; the line steps there at the fill, not at the next book frame (or never,
 * if none follows, where it would end at a price the summary does not mark at). Found by review18.
 *
 * Hand-worked (bids only): taker buy 1 @ 0.40 at 1 s; a book frame at 2 s (line 0.40); taker buy
 * 1 @ 0.30 at 3 s; close at 4 s. The summary marks at 0.30 (PnL −0.10), so the line steps to
 * 0.30 at 3 s and ends there, as the equity line ends at −0.10.
 */
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

describe("the HTML price chart of a token marked at its last fill", () => {
  it("steps its mark line to each fill's price at the fill, ending at the JSON summary's mark", () => {
    const w = fakeWorld();
    const report = { sharpeIntervalMs: 60_000, markoutsMs: [1_000] };
    const rec = new Recorder(w.session, w.bot, report, 0);
    const tl = new Timeline(w.session, w.bot, rec, 0);
    w.book(0, 400_000, undefined);
    w.fill(buy(1_000, 400_000n));
    w.book(2_000, 400_000, undefined);
    w.fill(buy(3_000, 300_000n));
    const s = buildRunSummary(rec.close(4_000), [TOKEN], noRequests());
    tl.close(4_000);
    const d = tl.data();
    expect(s.tokens[0]?.mark).toBe("0.3");
    expect(d.equity.v.at(-1)).toBe(-0.1);
    expect(d.tokens[0]?.mid.v.at(-1)).toBe(0.3);
    // At the fill itself: 0.40 from the first fill (1 s), 0.30 from the second (3 s).
    const steps = d.tokens[0]?.mid.t.map((t, i) => [t, d.tokens[0]?.mid.v[i]]);
    expect(steps).toEqual([
      [1_000, 0.4],
      [3_000, 0.3],
      [4_000, 0.3],
    ]);
  });
});
