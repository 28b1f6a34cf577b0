import { describe, expect, it } from "vitest";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, fill, journalPath, placed } from "./support.js";

describe("readRestore: orders a killed run may have left resting", () => {
  it("leaves out an order its journaled fills filled completely: it cannot rest any more", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const r1 = w.beginRun({ account: ACCOUNT, session: "one", atMs: 1, tokens: [] });
    const order = (cid: string, orderId: string, sizeMicro: bigint) => {
      w.intent(r1, {
        clientOrderId: cid,
        tokenId: "t1",
        marketId: "m1",
        side: "buy",
        level: 0,
        priceMicro: 470_000,
        sizeMicro,
        sent: true,
        atMs: 9,
      });
      w.outcome(r1, placed(cid, orderId));
    };
    // o1: 10 shares, filled 4 + 6 — gone from the book. o2: 10 shares, filled 4 — 6 may still rest.
    // o3: its intent is not in the journal (the store had lost it): its size is unknown, so it stays.
    order("mm-one-x-b0-1", "o1", 10_000_000n);
    order("mm-one-x-b0-2", "o2", 10_000_000n);
    w.outcome(r1, placed("mm-one-x-b0-3", "o3"));
    w.fill(r1, fill({ tradeId: "tr1", orderId: "o1", sizeMicro: 4_000_000n }), "stream");
    w.fill(r1, fill({ tradeId: "tr2", orderId: "o1", sizeMicro: 6_000_000n }), "backfill");
    w.fill(r1, fill({ tradeId: "tr3", orderId: "o2", sizeMicro: 4_000_000n }), "stream");
    w.fill(r1, fill({ tradeId: "tr4", orderId: "o3", sizeMicro: 10_000_000n }), "stream");
    // Killed: no endRun.
    const r2 = w.beginRun({ account: ACCOUNT, session: "two", atMs: 20, tokens: [] });

    expect(readRestore(db, ACCOUNT, r2).orders).toEqual(
      new Map([
        ["o2", "mm-one-x-b0-2"],
        ["o3", "mm-one-x-b0-3"],
      ]),
    );
    db.close();
  });
});
