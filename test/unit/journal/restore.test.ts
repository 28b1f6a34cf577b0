import { describe, expect, it } from "vitest";
import type { TokenAccount } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath, placed } from "./support.js";

const acc = (size: bigint, realised: bigint): TokenAccount => ({
  sizeMicro: size,
  costPico: size * 470_000n,
  realisedPico: realised,
  feesPico: 7n,
  feeSharesMicro: 0n,
});

describe("readRestore", () => {
  it("carries each token's last account and the orders a run that did not stop cleanly left", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const begin = (account: string, session: string) => w.beginRun({ account, session, atMs: 1, tokens: [] });

    // Run 1: clean stop; its last accounts are what run 3 starts from, its orders are all gone.
    const r1 = begin(ACCOUNT, "one");
    w.account(r1, 2, "fill", "t1", acc(5_000_000n, 1n), undefined);
    w.account(r1, 3, "fill", "t1", acc(6_000_000n, 2n), 500_000);
    w.account(r1, 3, "fill", "t2", acc(-1_000_000n, 3n), undefined);
    w.outcome(r1, placed("mm-one-x-b0-1", "o1"));
    w.endRun(r1, 4, "SIGTERM", 0);
    // Another wallet in the same file: never restored into ours.
    const other = begin("http://127.0.0.1:1|0xdef", "other");
    w.account(other, 5, "fill", "t1", acc(99_000_000n, 99n), undefined);
    w.outcome(other, placed("mm-other-x-b0-1", "o9"));
    // Run 2 of ours: killed (no stop); o2 rests, o3 was cancelled, o4 was never accepted.
    const r2 = begin(ACCOUNT, "two");
    w.account(r2, 6, "fill", "t2", acc(2_000_000n, 4n), undefined);
    w.intent(r2, {
      clientOrderId: "mm-two-x-b0-1",
      tokenId: "t2",
      marketId: "m1",
      side: "buy",
      level: 0,
      priceMicro: 470_000,
      sizeMicro: 5_000_000n,
      sent: true,
      atMs: 9,
    });
    w.outcome(r2, placed("mm-two-x-b0-1", "o2"));
    w.outcome(r2, placed("mm-two-x-s0-2", "o3"));
    w.outcome(r2, { ...placed("mm-two-x-s0-2", "o3"), op: "cancel", outcome: "done", orderId: undefined });
    w.outcome(r2, { ...placed("mm-two-x-b1-3", "o4"), outcome: "ambiguous", orderId: undefined });
    // o2 filled in part (journaled), and a fill of the same order id in the other wallet's runs.
    const part = {
      tradeId: "f2",
      orderId: "o2",
      clientOrderId: "mm-two-x-b0-1",
      tokenId: "t2",
      side: "buy" as const,
      priceMicro: 470_000,
      sizeMicro: 1_000_000n,
      tsMs: 7,
    };
    w.fill(r2, part, "stream");
    w.fill(other, { ...part, tradeId: "f9" }, "stream");
    const r3 = begin(ACCOUNT, "three");

    const r = readRestore(db, ACCOUNT, r3);
    expect(r.runs).toBe(2);
    expect(r.accounts).toEqual(
      new Map([
        ["t1", acc(6_000_000n, 2n)],
        ["t2", acc(2_000_000n, 4n)],
      ]),
    );
    expect(r.orders).toEqual(new Map([["o2", "mm-two-x-b0-1"]]));
    // Its journaled fills (so a trade of it is known as in the account) and when it was placed.
    expect(r.orderFills).toEqual([{ tradeId: "f2", orderId: "o2", tsMs: 7 }]);
    expect(r.ordersSinceMs).toBe(10);
    // Its token, from its intent (a trade record names none; the exchange may have forgotten it).
    expect(r.orderTokens).toEqual(new Map([["o2", "t2"]]));
    // A first run of an account restores nothing.
    const fresh = readRestore(db, "http://127.0.0.1:2|0xabc", r3 + 1);
    expect(fresh).toEqual({
      accounts: new Map(),
      marks: new Map(),
      orders: new Map(),
      feePending: [],
      orderFills: [],
      ordersSinceMs: undefined,
      orderTokens: new Map(),
      payoutReadsSince: new Map(),
      unanswered: new Map(),
      runs: 0,
    });
    db.close();
  });
});
