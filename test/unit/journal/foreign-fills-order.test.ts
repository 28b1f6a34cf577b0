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
 * an ask of 10 at 0.55. Run 2 does not trade "99". While mm was down the ask sold 10 (first), then
 * the bid bought 10 (later). GET /api/me/trades lists the later trade first.
 *
 * The search hands them over oldest first, as it folds a traded token's missed fills (backfillTrades
 * sorts both alike), and the journal books them in that order: the sale realises 10 × (0.55 − 0.40)
 * = 1.50 and the position ends 10 at 0.45. (In the page's order, newest first, the buy came first:
 * 20 at 0.425, then the sale realised 1.25, and the next run restored a cost basis of 0.425.)
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

describe("JournalRecorder: several fills made while mm was down on a token this run does not trade", () => {
  it("are booked oldest first, as the exchange made them (realised PnL and cost basis)", async () => {
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
    for (const e of h.eventsOf("restored_fill")) rec.onEvent(e);

    // 1.50 USDC realised, the position 10 at 0.45 (cost 4.50 USDC), as the exchange's order gives.
    expect(buildReport(db).total.realisedPico).toBe(1_500_000_000_000n);
    const run3 = w.beginRun({ account: ACCOUNT, session: "three", atMs: T0 + 60_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, run3).accounts.get(TOKEN);
    expect(next?.sizeMicro).toBe(10_000_000n);
    expect(next?.costPico).toBe(4_500_000_000_000n);
    db.close();
  });
});
