import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { buildReport } from "../../../src/journal/report.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { Harness, T0 } from "../engine/support/harness.js";
import { foreignRecorder, NO_TOKENS_ENGINE } from "./foreign-fills-support.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

/*
 * Run 1 traded token "99" (bought 10 at 0.40, sold 5 at 0.50: 0.50 USDC realised) and was killed
 * with an ask of 5 at 0.55 resting. Run 2 does not trade "99" (its config dropped that market).
 * The ask sold 3 while mm was down (trade X, before the session start: the start-up search hands it
 * to the journal as `restored_fill`), and 2 more just after run 2 started, before its orphan cancel
 * landed (trade Y: the wallet-scoped user channel delivers it during the start-up reconcile, and
 * the search's trade page has it too).
 *
 * The engine keeps no books for "99": Y is applied to nothing and handed over as `restored_fill`
 * (once from the stream, once from the search). The journal books X and Y from its own account of
 * "99", its `restore` row first, each fill once: mm report counts run 1's realised PnL once, and
 * the next restore of "99" holds both fills. (Before: the engine applied Y to an unseeded slot and
 * the journal wrote that account of Y alone over the real one, then ForeignFills' `restore` row
 * after it, counted as realised.)
 */
const TOKEN = "99";
const ORDER = "o-ask";
const CID = "mm-one-aaaaaaaaaa-s0-1";
const PLACED_AT = T0 - 3_600_000;

function run1(w: JournalWriter): void {
  const tokens = [{ tokenId: TOKEN, marketId: "m9", slug: "gone", outcome: "YES" }];
  const run = w.beginRun({ account: ACCOUNT, session: "one", atMs: PLACED_AT - 60_000, tokens });
  const buy: Fill = {
    tradeId: "b1",
    orderId: "o-bid",
    clientOrderId: "mm-one-aaaaaaaaaa-b0-0",
    tokenId: TOKEN,
    side: "buy",
    priceMicro: 400_000,
    sizeMicro: 10_000_000n,
    tsMs: PLACED_AT - 30_000,
  };
  const sell: Fill = {
    ...buy,
    tradeId: "s1",
    orderId: "o-ask0",
    side: "sell",
    priceMicro: 500_000,
    sizeMicro: 5_000_000n,
    tsMs: PLACED_AT - 20_000,
  };
  let acc = EMPTY_ACCOUNT;
  for (const f of [buy, sell]) {
    acc = applyTrade(acc, f.side, f.priceMicro, f.sizeMicro);
    w.batch(() => {
      w.fill(run, f, "stream");
      w.fee(f, { asset: "usdc", amountMicro: 0n }, f.tsMs);
      w.account(run, f.tsMs, "fill", TOKEN, acc, undefined);
    });
  }
  w.intent(run, {
    clientOrderId: CID,
    tokenId: TOKEN,
    marketId: "m9",
    side: "sell",
    level: 0,
    priceMicro: 550_000,
    sizeMicro: 5_000_000n,
    sent: true,
    atMs: PLACED_AT,
  });
  w.outcome(run, {
    op: "place",
    clientOrderId: CID,
    marketId: "m9",
    outcome: "accepted",
    orderId: ORDER,
    code: undefined,
    latencyMs: 3,
    atMs: PLACED_AT,
  });
  // Killed: no endRun.
}

const trade = (id: string, qty: string, atMs: number): TradeRecord =>
  ({
    id,
    orderId: ORDER,
    marketId: "m9",
    vaultAddress: "0xb0",
    fee: "0",
    side: "sell",
    price: "0.55",
    quantity: qty,
    createdAt: new Date(atMs).toISOString(),
  }) as TradeRecord;

describe("JournalRecorder: a user_fill on a token this run does not trade, next to a restored_fill of it", () => {
  it("mm report counts each fill's realised PnL once and the next restore has both fills", async () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    run1(w);
    const realisedRun1 = buildReport(db).total.realisedPico;
    expect(realisedRun1).toBe(500_000_000_000n); // 5 × (0.50 − 0.40)

    const run2 = w.beginRun({ account: ACCOUNT, session: "two", atMs: T0, tokens: [] });
    const found = readRestore(db, ACCOUNT, run2);
    expect(found.orderTokens.get(ORDER)).toBe(TOKEN);
    const h = new Harness({
      options: {
        restore: {
          accounts: new Map(), // run 2 trades none of run 1's tokens
          orders: found.orders,
          orderFills: found.orderFills,
          ordersSinceMs: found.ordersSinceMs,
          orderTokens: found.orderTokens,
        },
      },
    });
    const x = trade("t-x", "3", T0 - 1_800_000); // while mm was down
    const y = trade("t-y", "2", T0 + 5); // just after the session start
    const yFill: Fill = {
      tradeId: "t-y",
      orderId: ORDER,
      clientOrderId: CID,
      tokenId: TOKEN,
      side: "sell",
      priceMicro: 550_000,
      sizeMicro: 2_000_000n,
      tsMs: T0 + 5,
    };
    let delivered = false;
    h.exchange.trades = async () => {
      // The user channel delivers Y while the start-up reconcile pages the history.
      if (!delivered) {
        delivered = true;
        h.engine.onFill(yFill);
      }
      return { trades: [y, x], nextCursor: null };
    };
    await h.engine.start();
    await h.run(1_000);
    // The engine's own figures never saw it: no `fill`, no account of "99", no PnL.
    expect(h.eventsOf("fill")).toEqual([]);
    expect(h.engine.account(TOKEN)).toEqual(EMPTY_ACCOUNT);
    expect(h.engine.status().pnlMicro).toBe(0n);
    const handed = h.eventsOf("restored_fill").map((e) => e.fill.tradeId);
    // The search's, oldest first, then the stream's copy, held until the search was over.
    expect(handed).toEqual(["t-x", "t-y", "t-y"]);

    // The journal's recorder, fed the engine's events in their order, reading the engine's accounts.
    const rec = foreignRecorder(w, run2, found);
    rec.attach(h.engine);
    for (const e of h.events) if (e.type === "fill" || e.type === "restored_fill") rec.onEvent(e);
    expect(rec.failures).toBe(0);

    // X realises 3 × (0.55 − 0.40) = 0.45, Y 2 × (0.55 − 0.40) = 0.30: 1.25 in all with run 1's.
    const report = buildReport(db);
    expect(report.total.fills).toBe(4);
    expect(report.total.realisedPico).toBe(1_250_000_000_000n);
    // The next run that trades "99" restores the account with both fills: flat, as the exchange is.
    const run3 = w.beginRun({ account: ACCOUNT, session: "three", atMs: T0 + 60_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, run3);
    expect(next.accounts.get(TOKEN)?.sizeMicro).toBe(0n);
    expect(next.accounts.get(TOKEN)?.realisedPico).toBe(1_250_000_000_000n);
    // Y's fee came with the search's copy of the trade: journaled, so Y is not fee-pending.
    expect(next.feePending.map((f) => f.tradeId)).toEqual([]);
    db.close();
  });

  it("a fee the search brings for a fill the stream delivered first is journaled once, with the account", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const tokens = [{ tokenId: "t1", marketId: "m1", slug: "bra", outcome: "YES" }];
    const run1 = w.beginRun({ account: ACCOUNT, session: "one", atMs: T0, tokens });
    const bought = fill({ tsMs: T0 + 1_000 }); // 10 at 0.47
    const acc1 = applyTrade(EMPTY_ACCOUNT, "buy", bought.priceMicro, bought.sizeMicro);
    w.batch(() => {
      w.fill(run1, bought, "stream");
      w.fee(bought, { asset: "usdc", amountMicro: 0n }, bought.tsMs);
      w.account(run1, bought.tsMs, "fill", "t1", acc1, undefined);
    });
    const run2 = w.beginRun({ account: ACCOUNT, session: "two", atMs: T0 + 60_000, tokens: [] });
    const restore = readRestore(db, ACCOUNT, run2);
    const rec = foreignRecorder(w, run2, restore, T0 + 60_000);
    rec.attach(NO_TOKENS_ENGINE);
    const sold = fill({
      tradeId: "tr9",
      orderId: "o2",
      side: "sell",
      priceMicro: 500_000,
      sizeMicro: 4_000_000n,
      tsMs: T0 + 61_000,
    });
    const fee = { asset: "usdc" as const, amountMicro: 20_000n };
    rec.onEvent({ type: "restored_fill", atMs: T0 + 61_000, fill: sold, fee: undefined }); // the stream's
    rec.onEvent({ type: "restored_fill", atMs: T0 + 62_000, fill: sold, fee }); // the search's copy
    rec.onEvent({ type: "restored_fill", atMs: T0 + 63_000, fill: sold, fee }); // and again: nothing
    expect(rec.failures).toBe(0);

    const report = buildReport(db);
    expect(report.total.fills).toBe(2);
    expect(report.total.realisedPico).toBe(120_000_000_000n); // 4 × (0.50 − 0.47)
    expect(report.total.feesPico).toBe(20_000_000_000n);
    const run3 = w.beginRun({ account: ACCOUNT, session: "three", atMs: T0 + 120_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, run3);
    expect(next.accounts.get("t1")).toEqual(applyTrade(acc1, "sell", 500_000, 4_000_000n, fee));
    expect(next.feePending).toEqual([]);
    db.close();
  });
});
