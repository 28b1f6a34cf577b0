import { describe, expect, it } from "vitest";
import { AdoptedEnds } from "../../../src/journal/adopted-ends.js";
import { journalGoneOrders } from "../../../src/journal/gone-orders.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, journalPath, placed } from "./support.js";

/** An engine's live orders, set by the test. */
class FakeEngine {
  live: string[] = [];
  liveOrders(): { orderId: string | undefined }[] {
    return [...this.live.map((orderId) => ({ orderId })), { orderId: undefined }];
  }
}

describe("AdoptedEnds: an earlier run's order this run adopted, ended without a cancel of ours", () => {
  it("is journaled closed once it leaves the engine's live orders, once, and only if adopted", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const run1 = w.beginRun({ account: ACCOUNT, session: "one", atMs: 1, tokens: [] });
    const orders = new Map([
      ["o1", "mm-one-x-b0-1"],
      ["o2", "mm-one-x-s0-2"],
      ["o3", "mm-one-x-b1-3"],
    ]);
    for (const [orderId, cid] of orders) {
      w.outcome(run1, placed(cid, orderId));
    }
    const run2 = w.beginRun({ account: ACCOUNT, session: "two", atMs: 20, tokens: [] });
    const offered = () => readRestore(db, ACCOUNT, run2 + 1).orders;
    expect(offered()).toEqual(orders);

    // Run 2 adopted o1 and o2 (o3 was not adopted: the start's gone check is its judge).
    const engine = new FakeEngine();
    engine.live = ["o1", "o2", "x-ours"];
    const ends = new AdoptedEnds(orders);
    ends.watch(engine);
    expect(ends.watching).toBe(2);
    expect(ends.closeEnded(engine, w, run2, 30)).toBe(0);

    // o1 ends (cancelled by someone else, found by a reconcile): closed; o3, never live, is not.
    engine.live = ["o2", "x-ours"];
    expect(ends.closeEnded(engine, w, run2, 40)).toBe(1);
    expect(ends.closeEnded(engine, w, run2, 41)).toBe(0);
    expect(offered()).toEqual(new Map([...orders].filter(([id]) => id !== "o1")));

    // o2 ends by a cancel of ours answered done: already ended, so no `closed` row on top of it.
    w.outcome(run2, {
      op: "cancel",
      clientOrderId: "mm-one-x-s0-2",
      marketId: undefined,
      outcome: "done",
      orderId: undefined,
      code: undefined,
      latencyMs: 2,
      atMs: 50,
    });
    engine.live = [];
    expect(ends.closeEnded(engine, w, run2, 60)).toBe(0);
    expect(ends.watching).toBe(0);

    // The start's gone check finding o1 too writes no second row; o3 gets its status.
    journalGoneOrders(
      w,
      run2,
      [
        { orderId: "o1", clientOrderId: "mm-one-x-b0-1", marketId: "m1", status: "CANCELLED" },
        { orderId: "o3", clientOrderId: "mm-one-x-b1-3", marketId: "m1", status: "EXPIRED" },
      ],
      70,
    );
    const closed = db
      .prepare("SELECT order_id, code, at_ms FROM outcomes WHERE outcome = 'closed' ORDER BY id")
      .all();
    expect(closed).toEqual([
      { order_id: "o1", code: "ended", at_ms: 40n },
      { order_id: "o3", code: "EXPIRED", at_ms: 70n },
    ]);
    expect(offered()).toEqual(new Map());
    db.close();
  });

  it("follows nothing without restored orders or without the engine's live orders", () => {
    const none = new AdoptedEnds(new Map());
    none.watch(new FakeEngine());
    expect(none.watching).toBe(0);
    const blind = new AdoptedEnds(new Map([["o1", "c1"]]));
    blind.watch({});
    blind.watch(undefined);
    expect(blind.watching).toBe(0);
  });
});
