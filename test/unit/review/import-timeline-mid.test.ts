import { describe, expect, it } from "vitest";
import { Timeline } from "../../../src/backtest/report/html/timeline.js";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { fakeWorld, TOKEN, usdc } from "../backtest/support/recorder-world.js";

/*
 * review18 (rv-import): the HTML report's per-market "mid" line for a token whose book was never
 * two-sided. The Recorder marks such a token at its last fill's price (README), and the equity
 * chart and the JSON summary use that mark; the Timeline samples the mark only at book events
 * (and resolutions), so a fill's new mark reaches the price chart only at the next book frame, and
 * never if none follows: the chart's line ends at a price the summary does not mark at.
 *
 * Hand-worked (bids only): taker buy 1 @ 0.40 at 1 s; a book frame at 2 s (line 0.40); taker buy
 * 1 @ 0.30 at 3 s; close at 4 s. The summary marks at 0.30 (PnL −0.10), so the line should end at
 * 0.30, as the equity line ends at −0.10.
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
  it("ends its mid line at the mark the JSON summary uses", () => {
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
  });
});
