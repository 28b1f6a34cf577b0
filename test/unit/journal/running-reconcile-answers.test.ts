import { describe, expect, it } from "vitest";
import { harnessBid } from "../engine/support/harness-records.js";
import { journaledRun } from "./support-running.js";

/*
 * Review 17 (exec), retention × running reconcile. A placement answered ambiguously stays unanswered
 * in the journal (UNANSWERED) until an answer row is written. The start-up lookup writes one
 * (`placements_resolved`), and the run's own reconcile did only when it found the order still open
 * (bindLive). Found ended in the history, proven never placed by a complete search, or given up, the
 * running run wrote nothing: the intent stayed unanswered, retention (849246b) kept every such
 * intent of the running run, and after a crash of a run of weeks the next start searched them all
 * before quoting. The running reconcile's answers are now journaled like the start's; a given-up one
 * (never proven unplaced) is still offered to the next start.
 */

describe("journal: the running reconcile's answers to ambiguous placements", () => {
  it("found ended in the order history: journaled accepted and closed, no longer unanswered", async () => {
    let cid = "";
    const { h, db, restoreNow, ...r } = await journaledRun((ids) =>
      ids.includes(cid)
        ? {
            orders: [harnessBid({ id: "o-amb", clientOrderId: cid, status: "FILLED", createdAtMs: 0 })],
            complete: true,
          }
        : undefined,
    );
    cid = r.cid;
    expect(restoreNow().unanswered.has(cid)).toBe(true); // before any reconcile answered it
    await h.run(5_000);
    const answered = h.eventsOf("placements_answered").flatMap((e) => e.placements);
    expect(answered).toMatchObject([{ clientOrderId: cid, orderId: "o-amb", status: "FILLED" }]);
    const next = restoreNow();
    // Before the fix: still unanswered (the engine no longer held it live, so nothing was written).
    expect(next.unanswered.has(cid)).toBe(false);
    expect([...next.orders.values()]).not.toContain(cid); // closed (FILLED): it may not rest
    db.close();
  });

  it("proven never placed by a complete search past its grace: journaled rejected never_placed", async () => {
    const { h, db, cid, restoreNow } = await journaledRun();
    await h.run(40_000);
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId: undefined, givenUp: false },
    ]);
    expect(restoreNow().unanswered.has(cid)).toBe(false);
    const rows = db
      .prepare("SELECT outcome, code FROM outcomes WHERE client_order_id = ? AND op = 'place' ORDER BY id")
      .all(cid);
    expect(rows).toEqual([
      { outcome: "ambiguous", code: "request_timeout" },
      { outcome: "rejected", code: "never_placed" },
    ]);
    db.close();
  });

  it("given up after cut-short searches: journaled, but still offered to the next start as unanswered", async () => {
    const { h, db, cid, restoreNow } = await journaledRun((ids) =>
      ids.length > 0 ? { orders: [], complete: false, resume: "next-page" } : undefined,
    );
    await h.run(10 * 60_000);
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, givenUp: true },
    ]);
    // Not proof it was never placed: the next start looks it up by clientOrderId again.
    expect(restoreNow().unanswered.has(cid)).toBe(true);
    const rows = db
      .prepare("SELECT outcome, code FROM outcomes WHERE client_order_id = ? AND op = 'place' ORDER BY id")
      .all(cid);
    expect(rows).toEqual([
      { outcome: "ambiguous", code: "request_timeout" },
      { outcome: "ambiguous", code: "history_search_capped" },
    ]);
    db.close();
  });
});
