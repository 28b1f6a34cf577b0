import { describe, expect, it } from "vitest";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { T0 } from "../engine/support/harness.js";
import {
  ASK,
  BID,
  expectSaleThenBuy,
  foreignRecorder,
  killedQuotingRun,
  trade,
  untradingRun,
} from "./foreign-fills-support.js";
import { journalPath } from "./support.js";

/*
 * Run 1 bought 10 of token "99" at 0.40 and was killed quoting it both ways: a bid of 10 at 0.45 and
 * an ask of 10 at 0.55. Run 2 does not trade "99". While mm was down the ask sold 10 (first), then
 * the bid bought 10 (later). GET /api/me/trades lists the later trade first.
 *
 * The search hands them over oldest first, as it folds a traded token's missed fills (backfillTrades
 * sorts both alike), and the journal books them in that order: the sale realises 10 × (0.55 − 0.40)
 * = 1.50 and the position ends 10 at 0.45. (In the page's order, newest first, the buy came first:
 * 20 at 0.425, then the sale realised 1.25, and the next run restored a cost basis of 0.425.)
 */
describe("JournalRecorder: several fills made while mm was down on a token this run does not trade", () => {
  it("are booked oldest first, as the exchange made them (realised PnL and cost basis)", async () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    killedQuotingRun(w);
    const { run, found, h } = untradingRun(db, w);
    // Newest first, as the exchange pages them.
    const page = [
      trade("t-buy", BID, "buy", "0.45", T0 - 600_000),
      trade("t-sell", ASK, "sell", "0.55", T0 - 1_200_000),
    ];
    h.exchange.trades = async () => ({ trades: page, nextCursor: null });
    await h.engine.start();
    await h.run(1_000);
    const handed = h.eventsOf("restored_fill").map((e) => e.fill.tradeId);
    expect(handed).toEqual(["t-sell", "t-buy"]);

    const rec = foreignRecorder(w, run, found);
    rec.attach(h.engine);
    for (const e of h.eventsOf("restored_fill")) rec.onEvent(e);
    expectSaleThenBuy(db, w);
    db.close();
  });
});
