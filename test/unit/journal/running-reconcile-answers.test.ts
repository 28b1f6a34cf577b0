import { describe, expect, it } from "vitest";
import type { ClientIdSearch } from "../../../src/execution/history-search.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { Harness } from "../engine/support/harness.js";
import { harnessBid } from "../engine/support/harness-records.js";
import { ACCOUNT, journalPath } from "./support.js";

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

/** A started Harness journaling into a real SQLite file, whose next placement is answered ambiguously. */
async function journaledRun(search?: (ids: readonly string[]) => ClientIdSearch | undefined) {
  const db = openJournalDb(journalPath());
  const writer = new JournalWriter(db);
  let rec: JournalRecorder | undefined;
  const h = new Harness({ onEvent: (e) => rec?.onEvent(e) });
  const run = writer.beginRun({ account: ACCOUNT, session: "t1", atMs: h.clock.now(), tokens: [] });
  rec = new JournalRecorder({
    writer,
    run,
    clock: h.clock,
    logger: memoryLogger("error").logger,
    snapshotIntervalMs: 0,
  });
  rec.attach(h.engine);
  if (search !== undefined) {
    const real = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window, resume) => search(ids) ?? real(ids, window, resume);
  }
  const [yes] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  await h.engine.start();
  await h.run();
  // Nothing reaches the venue; the answer is lost (a timeout).
  h.exchange.scriptPlace({ kind: "ambiguous_before" });
  h.crowdQuote(yes, "0.50", "0.54");
  await h.run(1_000);
  const amb = h.eventsOf("place_outcome").find((e) => e.outcome === "ambiguous");
  if (amb === undefined) throw new Error("no ambiguous placement");
  const cid = amb.intent.clientOrderId;
  /** What restore offers a run starting now (this one killed): the unanswered placements and resting orders. */
  const restoreNow = () => {
    const next = writer.beginRun({ account: ACCOUNT, session: "t2", atMs: h.clock.now(), tokens: [] });
    return readRestore(db, ACCOUNT, next);
  };
  return { h, db, cid, restoreNow };
}

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
