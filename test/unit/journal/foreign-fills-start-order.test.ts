import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Fill } from "../../../src/core/trading.js";
import type { Side } from "../../../src/core/types.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { buildReport } from "../../../src/journal/report.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { Harness, T0 } from "../engine/support/harness.js";
import { ACCOUNT, journalPath } from "./support.js";

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
const TOKEN = "99";
const BID = "o-bid";
const ASK = "o-ask";
const PLACED_AT = T0 - 3_600_000;

function placed(
  w: JournalWriter,
  run: number,
  cid: string,
  orderId: string,
  side: Side,
  price: number,
): void {
  w.intent(run, {
    clientOrderId: cid,
    tokenId: TOKEN,
    marketId: "m9",
    side,
    level: 0,
    priceMicro: price,
    sizeMicro: 10_000_000n,
    sent: true,
    atMs: PLACED_AT,
  });
  w.outcome(run, {
    op: "place",
    clientOrderId: cid,
    marketId: "m9",
    outcome: "accepted",
    orderId,
    code: undefined,
    latencyMs: 3,
    atMs: PLACED_AT,
  });
}

const trade = (id: string, orderId: string, side: Side, price: string, atMs: number): TradeRecord =>
  ({
    id,
    orderId,
    marketId: "m9",
    vaultAddress: "0xb0",
    fee: "0",
    side,
    price,
    quantity: "10",
    createdAt: new Date(atMs).toISOString(),
  }) as TradeRecord;

describe("a stream fill on an untraded token arriving during the start-up search", () => {
  it("is booked after the older down-time fill the search hands over (oldest first, as README says)", async () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const tokens = [{ tokenId: TOKEN, marketId: "m9", slug: "gone", outcome: "YES" }];
    const run1 = w.beginRun({ account: ACCOUNT, session: "one", atMs: PLACED_AT - 60_000, tokens });
    const bought: Fill = {
      tradeId: "b0",
      orderId: "o-first",
      clientOrderId: "mm-one-aaaaaaaaaa-b0-0",
      tokenId: TOKEN,
      side: "buy",
      priceMicro: 400_000,
      sizeMicro: 10_000_000n,
      tsMs: PLACED_AT - 30_000,
    };
    w.batch(() => {
      w.fill(run1, bought, "stream");
      w.fee(bought, { asset: "usdc", amountMicro: 0n }, bought.tsMs);
      w.account(
        run1,
        bought.tsMs,
        "fill",
        TOKEN,
        applyTrade(EMPTY_ACCOUNT, "buy", 400_000, 10_000_000n),
        undefined,
      );
    });
    placed(w, run1, "mm-one-aaaaaaaaaa-b0-1", BID, "buy", 450_000);
    placed(w, run1, "mm-one-aaaaaaaaaa-s0-2", ASK, "sell", 550_000);

    const run2 = w.beginRun({ account: ACCOUNT, session: "two", atMs: T0, tokens: [] });
    const found = readRestore(db, ACCOUNT, run2);
    const h = new Harness({
      options: {
        restore: {
          accounts: new Map(),
          orders: found.orders,
          orderFills: found.orderFills,
          ordersSinceMs: found.ordersSinceMs,
          orderTokens: found.orderTokens,
        },
      },
    });
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

    const rec = new JournalRecorder({
      writer: w,
      run: run2,
      clock: new SimClock(T0),
      logger: createLogger({ level: "error", pretty: false, destination: collectingStream() }),
      snapshotIntervalMs: 0,
      restored: new Map(),
      restoredOrders: found.orders,
      foreignAccounts: found.accounts,
    });
    rec.attach(h.engine);
    for (const e of h.events)
      if (e.type === "fill" || e.type === "restored_fill" || e.type === "started") rec.onEvent(e);
    expect(rec.failures).toBe(0);

    // The exchange's order: sell (realises 1.50), then buy 10 at 0.45.
    expect(buildReport(db).total.realisedPico).toBe(1_500_000_000_000n);
    const run3 = w.beginRun({ account: ACCOUNT, session: "three", atMs: T0 + 60_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, run3).accounts.get(TOKEN);
    expect(next?.sizeMicro).toBe(10_000_000n);
    expect(next?.costPico).toBe(4_500_000_000_000n);
    db.close();
  });
});
