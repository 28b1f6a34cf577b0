import { describe, expect, it } from "vitest";
import type { Harness } from "../engine/support/harness.js";
import { journaledRun } from "./support-running.js";

/*
 * Session 18 (rcfix). A placement answered ambiguously was journaled answered only by a reconcile:
 * its history search (`placements_answered`) or, found on the open list, the `reconcile` event's
 * look at the orders the engine holds live. One a user_fill settled first (the fill names its
 * clientOrderId, so the store bound its orderId and, filled whole, ended it) was neither: no search
 * looks for an order that already has an id, and by the next reconcile event it was no longer live.
 * Its intent stayed unanswered, kept by retention for the whole run and searched for again by the
 * next start after a crash. The fill that binds it now journals the same answer a search would.
 */

/** Has a taker fill `qty` shares of the ambiguous placement resting on the venue, its user_fill delivered. */
async function fillBeforeReconcile(h: Harness, cid: string, qty: string): Promise<void> {
  takeAll(h, cid, qty);
  await h.run(); // the user_fill is delivered (a microtask), before the reconcile's debounce ends
}

/** Has a taker fill `qty` shares of the ambiguous placement resting on the venue (its user_fill a microtask later). */
function takeAll(h: Harness, cid: string, qty: string): void {
  const amb = h.eventsOf("place_outcome").find((e) => e.intent.clientOrderId === cid);
  if (amb === undefined) throw new Error("no ambiguous placement");
  const { tokenId, quote } = amb.intent;
  const price = (quote.priceMicro / 1e6).toFixed(2);
  // The crowd's 100 shares quoted better than ours (ambiguousBid's 0.50 / 0.54) are taken first.
  h.take(tokenId, quote.side === "buy" ? "sell" : "buy", price, String(100 + Number(qty)));
}

describe("journal: an ambiguous placement settled by its WebSocket fill", () => {
  it("filled whole before any reconcile answered it: journaled accepted and closed; a restart does not search for it", async () => {
    const { h, db, cid, restoreNow } = await journaledRun(undefined, { reaching: true });
    expect(restoreNow().unanswered.has(cid)).toBe(true);
    await fillBeforeReconcile(h, cid, "10");
    const fill = h.eventsOf("fill").find((e) => e.fill.clientOrderId === cid);
    expect(fill?.source).toBe("stream");
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId: fill?.fill.orderId, status: "FILLED", givenUp: false },
    ]);
    await h.run(5_000); // the reconciles that follow change nothing in the journal's answer
    const next = restoreNow();
    // Before the fix: still unanswered (the next start searched the order history for it).
    expect(next.unanswered.has(cid)).toBe(false);
    expect([...next.orders.values()]).not.toContain(cid); // closed (FILLED): it may not rest
    const rows = db
      .prepare(
        "SELECT outcome, code, order_id AS orderId FROM outcomes WHERE client_order_id = ? AND op = 'place' ORDER BY id",
      )
      .all(cid);
    expect(rows).toEqual([
      { outcome: "ambiguous", code: "request_timeout", orderId: null },
      { outcome: "accepted", code: "resolved", orderId: fill?.fill.orderId },
    ]);
    db.close();
  });

  it("partly filled: journaled accepted at once, so a restart looks it up as an order that may rest, not by its clientOrderId", async () => {
    const { h, db, cid, restoreNow } = await journaledRun(undefined, { reaching: true });
    await fillBeforeReconcile(h, cid, "4");
    const fill = h.eventsOf("fill").find((e) => e.fill.clientOrderId === cid);
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId: fill?.fill.orderId, status: undefined, givenUp: false },
    ]);
    const next = restoreNow();
    expect(next.unanswered.has(cid)).toBe(false);
    expect(next.orders.get(fill?.fill.orderId ?? "")).toBe(cid);
    db.close();
  });
  it("partly filled while a cut-short history search is on its way: answered once, by the fill, and still held live", async () => {
    const { h, db, cid } = await journaledRun(undefined, { reaching: true });
    // Not on the open list (a lagging read): the reconcile searches the history for it, the search
    // is cut short by its page bound before reaching it, and the user_fill arrives meanwhile.
    h.exchange.unlisted.add(cid);
    h.exchange.ordersByClientId = async (ids) => {
      if (ids.includes(cid) && h.exchange.unlisted.delete(cid)) takeAll(h, cid, "4");
      return { orders: [], complete: false, resume: "page-26" };
    };
    await h.run(500); // the reconcile and its search
    expect(h.exchange.unlisted.has(cid)).toBe(false); // the search ran
    // Before the guard: the search's "not found" was applied to an order that now had an id, as to
    // a ghost (cancelled, order_not_found), freeing its level while 6 shares rested, and answered it
    // again, as never placed.
    expect(h.engine.liveOrders().find((o) => o.clientOrderId === cid)).toMatchObject({ state: "unknown" });
    await h.run(3_000); // the follow-up reconcile finds it open: the requote cancels what rests of it
    expect(h.eventsOf("cancel_outcome").filter((e) => e.clientOrderId === cid)).toMatchObject([
      { outcome: "done" },
    ]);
    const answers = h.eventsOf("placements_answered").flatMap((e) => e.placements);
    expect(answers.filter((a) => a.clientOrderId === cid)).toMatchObject([{ orderId: expect.any(String) }]);
    const rows = db
      .prepare("SELECT outcome FROM outcomes WHERE client_order_id = ? AND op = 'place' ORDER BY id")
      .all(cid);
    expect(rows).toEqual([{ outcome: "ambiguous" }, { outcome: "accepted" }]);
    db.close();
  });
  it("found on the open list by a reconcile that then fails: journaled accepted as soon as the list is read", async () => {
    const { h, db, cid, restoreNow } = await journaledRun(undefined, { reaching: true });
    // The reconcile reads the open list (it rests there), then its positions read fails: no
    // `reconcile` event, where the orders held live used to be journaled (bindLive).
    const down = async (): Promise<never> => {
      throw new Error("positions down");
    };
    h.exchange.positionsAt = down;
    h.exchange.positions = down;
    await h.run(1_000);
    expect(h.eventsOf("reconcile_failed").length).toBeGreaterThan(0);
    const id = h.engine.liveOrders().find((o) => o.clientOrderId === cid)?.orderId;
    expect(id).toBeDefined();
    // Before: unanswered (bindLive waits for a reconcile that succeeds; filled meanwhile, never).
    const next = restoreNow();
    expect(next.unanswered.has(cid)).toBe(false);
    expect(next.orders.get(id ?? "")).toBe(cid);
    db.close();
  });
});
