import { describe, expect, it } from "vitest";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { buildReport } from "../../../src/journal/report.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { foreignRecorder, NO_TOKENS_ENGINE } from "./foreign-fills-support.js";
import { ACCOUNT, fill, journalPath } from "./support.js";

const T0 = Date.UTC(2025, 5, 1, 12);
const CID = "mm-one-x-s0-2";

/*
 * A killed run 1 bought 10 of t1 at 0.47 and left an ask on t1 resting. Run 2 does not trade t1; its
 * start-up search finds 4 of that ask sold at 0.50 while mm was down (`restored_fill`): the journal
 * books it under t1 from t1's journaled account, so `mm report` has it and the next run that trades
 * t1 restores it.
 */
describe("JournalRecorder: a fill made while mm was down on a token this run does not trade", () => {
  it("is journaled under its token from the journaled account, counted once by mm report and the next restore", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const tokens = [{ tokenId: "t1", marketId: "m1", slug: "bra", outcome: "YES" }];
    const run1 = w.beginRun({ account: ACCOUNT, session: "one", atMs: T0, tokens });
    const bought = fill({ tsMs: T0 + 1_000 });
    const acc1 = applyTrade(EMPTY_ACCOUNT, "buy", bought.priceMicro, bought.sizeMicro);
    w.batch(() => {
      w.fill(run1, bought, "stream");
      w.account(run1, bought.tsMs, "fill", "t1", acc1, undefined);
    });
    w.intent(run1, {
      clientOrderId: CID,
      tokenId: "t1",
      marketId: "m1",
      side: "sell",
      level: 0,
      priceMicro: 500_000,
      sizeMicro: 10_000_000n,
      sent: true,
      atMs: T0 + 2_000,
    });
    w.outcome(run1, {
      op: "place",
      clientOrderId: CID,
      marketId: "m1",
      outcome: "accepted",
      orderId: "o2",
      code: undefined,
      latencyMs: 3,
      atMs: T0 + 2_000,
    });
    const before = buildReport(db);

    // Run 2 trades another token only.
    const run2 = w.beginRun({ account: ACCOUNT, session: "two", atMs: T0 + 60_000, tokens: [] });
    const restore = readRestore(db, ACCOUNT, run2);
    expect(restore.orders).toEqual(new Map([["o2", CID]]));
    expect(restore.orderTokens).toEqual(new Map([["o2", "t1"]]));
    const rec = foreignRecorder(w, run2, restore, T0 + 60_000);
    rec.attach(NO_TOKENS_ENGINE);
    const sold = fill({
      tradeId: "tr9",
      orderId: "o2",
      clientOrderId: CID,
      side: "sell",
      priceMicro: 500_000,
      sizeMicro: 4_000_000n,
      tsMs: T0 + 30_000,
    });
    const fee = { asset: "usdc" as const, amountMicro: 20_000n };
    const event = { type: "restored_fill" as const, atMs: T0 + 61_000, fill: sold, fee };
    rec.onEvent(event);
    rec.onEvent(event); // handed over twice: journaled once
    expect(rec.failures).toBe(0);

    const after = buildReport(db);
    expect(after.total.fills).toBe(before.total.fills + 1);
    expect(after.total.volumeMicro).toBe(before.total.volumeMicro + 4_000_000n);
    // 4 sold at 0.50 against a cost of 0.47: 0.12 USDC realised; the fee 0.02 USDC.
    expect(after.total.realisedPico - before.total.realisedPico).toBe(120_000_000_000n);
    expect(after.total.feesPico - before.total.feesPico).toBe(20_000_000_000n);

    // The next run that trades t1 starts from the account with the fill and its fee, and knows the
    // fill as journaled.
    const run3 = w.beginRun({ account: ACCOUNT, session: "three", atMs: T0 + 120_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, run3);
    expect(next.accounts.get("t1")).toEqual(applyTrade(acc1, "sell", 500_000, 4_000_000n, fee));
    expect(next.orderFills).toContainEqual({ tradeId: "tr9", orderId: "o2", tsMs: T0 + 30_000 });
    expect(next.feePending.map((f) => f.tradeId)).toEqual(["tr1"]); // run 1's own; tr9 has its fee
    db.close();
  });
});
