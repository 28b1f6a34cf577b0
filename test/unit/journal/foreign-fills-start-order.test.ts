import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { T0 } from "../engine/support/harness.js";
import {
  ASK,
  BID,
  expectSaleThenBuy,
  foreignRecorder,
  killedQuotingRun,
  TOKEN,
  trade,
  untradingRun,
} from "./foreign-fills-support.js";
import { journalPath } from "./support.js";

/*
 * Run 1 bought 10 of token "99" at 0.40 and was killed quoting it both ways: a bid of 10 at 0.45 and
 * an ask of 10 at 0.55. Run 2 does not trade "99". While mm was down the ask sold 10 (t-sell, before
 * the session start). Just after run 2's session start, while its start-up reconcile pages the trade
 * history (the killed run's bid is still resting: its orphan cancel is sent only after the search),
 * the bid buys 10 (t-buy): the wallet's user channel delivers it at once.
 *
 * On the exchange the sale came first: it realises 10 × (0.55 − 0.40) = 1.50 and the position ends
 * 10 at 0.45. README ("Restart"): "The journal books it alone, oldest first". But FillIntake hands
 * the stream's t-buy to the journal the moment it arrives, before the search hands over the older
 * t-sell: the journal books buy then sell (20 at 0.425, then the sale realises 1.25) and the next run
 * that trades "99" restores a cost basis of 0.425 — the defect journal8 #2 fixed for the search alone.
 */
describe("a stream fill on an untraded token arriving during the start-up search", () => {
  it("is booked after the older down-time fill the search hands over (oldest first, as README says)", async () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    killedQuotingRun(w);
    const { run, found, h } = untradingRun(db, w);
    const streamBuy: Fill = {
      tradeId: "t-buy",
      orderId: BID,
      clientOrderId: "mm-one-aaaaaaaaaa-b0-1",
      tokenId: TOKEN,
      side: "buy",
      priceMicro: 450_000,
      sizeMicro: 10_000_000n,
      tsMs: T0 + 5,
    };
    // Newest first, as the exchange pages them.
    const page = [
      trade("t-buy", BID, "buy", "0.45", T0 + 5),
      trade("t-sell", ASK, "sell", "0.55", T0 - 1_200_000),
    ];
    let delivered = false;
    h.exchange.trades = async () => {
      // The user channel delivers the bid's fill while the start-up reconcile pages the history.
      if (!delivered) {
        delivered = true;
        h.engine.onFill(streamBuy);
      }
      return { trades: page, nextCursor: null };
    };
    await h.engine.start();
    await h.run(1_000);

    const rec = foreignRecorder(w, run, found);
    rec.attach(h.engine);
    for (const e of h.events)
      if (e.type === "fill" || e.type === "restored_fill" || e.type === "started") rec.onEvent(e);
    expect(rec.failures).toBe(0);
    // The exchange's order: sell (realises 1.50), then buy 10 at 0.45.
    expectSaleThenBuy(db, w);
    db.close();
  });
});
