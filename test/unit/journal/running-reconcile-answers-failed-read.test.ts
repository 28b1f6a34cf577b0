import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { memoryLogger } from "../../integration/daemon/support.js";
import { Harness } from "../engine/support/harness.js";
import { ACCOUNT, journalPath } from "./support.js";

/*
 * runReconcile writes the history search's answers into the order store (never placed, found, given
 * up) and only then reads the trades. When that later read fails the run rejects; the answers must
 * already have reached the journal (`onAnswered` → `placements_answered`), since the store no longer
 * holds the placement unresolved and no later reconcile answers it again: the journal would keep it
 * unanswered for the rest of the run, and a crash would have the next start search it (review 17 r3a).
 */
describe("journal: the running reconcile's answers survive a later read failing in the same run", () => {
  it("never placed (complete search past grace), trades read fails once: still journaled rejected never_placed", async () => {
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
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.exchange.scriptPlace({ kind: "ambiguous_before" });
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(1_000);
    const amb = h.eventsOf("place_outcome").find((e) => e.outcome === "ambiguous");
    if (amb === undefined) throw new Error("no ambiguous placement");
    const cid = amb.intent.clientOrderId;
    const sentAt = h.clock.now(); // ~1.25 s after the send: its grace (30 s) ends ~28.75 s on

    // The first reconcile whose history search runs past the grace: its trades read then fails (a 503).
    let searchedPastGrace = false;
    let failed = false;
    const search = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window, resume) => {
      if (ids.includes(cid) && h.clock.now() - sentAt >= 28_000) searchedPastGrace = true;
      return search(ids, window, resume);
    };
    const trades = h.exchange.trades.bind(h.exchange);
    h.exchange.trades = async (opts) => {
      if (searchedPastGrace && !failed) {
        failed = true;
        throw new ExchangeError({
          code: "exchange_unavailable",
          message: "503",
          outcome: "retryable",
          endpoint: "GET /api/me/trades",
          httpStatus: 503,
        });
      }
      return trades(opts);
    };

    await h.run(5 * 60_000);
    expect(failed).toBe(true);
    expect(h.eventsOf("reconcile_failed").length).toBeGreaterThan(0);
    // Later reconciles succeed; the answer the failed one put into the store is never journaled.
    const answered = h.eventsOf("placements_answered").flatMap((e) => e.placements);
    expect(answered.map((a) => a.clientOrderId)).toContain(cid);
    const next = writer.beginRun({ account: ACCOUNT, session: "t2", atMs: h.clock.now(), tokens: [] });
    expect(readRestore(db, ACCOUNT, next).unanswered.has(cid)).toBe(false);
    db.close();
  });
});
