import type { Database } from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalPruner } from "../../../src/journal/prune.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter, type OutcomeRecord } from "../../../src/journal/writer.js";
import { Harness, T0 } from "../engine/support/harness.js";
import { harnessBid, harnessBidFill } from "../engine/support/harness-records.js";
import { ACCOUNT, ambiguousAnswer, journalPath, sentHarnessBid } from "./support.js";

/*
 * A placement sent without a definite answer (killed with it on the wire, or answered ambiguously)
 * is offered by restore for the start-up search by clientOrderId (UNANSWERED). A start that could not
 * search its whole window (history past the page cap, a failed read) leaves it for the next one. But
 * retention deleted such an intent once older than journal.retentionDays, like any order detail: a
 * restart after that (a long outage, a week of starts cut short) no longer looked it up, and a fill
 * the order made while mm was down vanished into the start-up baseline. Retention now keeps it until
 * answered; and an intent whose answer retention deletes goes with that answer, so it is never
 * mistaken for an unanswered one and kept (and searched) for good.
 */

const DAY = 86_400_000;
const SENT = T0 - 10 * DAY;
const RETENTION = 7 * DAY;

const WIRE = "mm-old-0000000000-b0-1"; // killed with the request on the wire
const AMBIGUOUS = "mm-old-0000000000-b0-2"; // answered ambiguously, never resolved
const CANCELLED = "mm-old-0000000000-b0-3"; // accepted, then cancelled: answered
const REJECTED = "mm-old-0000000000-b0-4"; // rejected: answered
const AMBIGUOUS_ENDED = "mm-old-0000000000-b0-5"; // ambiguous, then a cancel answered done: ended
const CLEAN = "mm-clean-000000000-b0-1"; // unanswered in a run that stopped cleanly: nothing rests

const answer = (
  cid: string,
  outcome: OutcomeRecord["outcome"],
  atMs: number,
  op: "place" | "cancel" = "place",
) => ({
  op,
  clientOrderId: cid,
  marketId: "m1",
  outcome,
  orderId: outcome === "accepted" ? `o-${cid}` : undefined,
  code: outcome === "rejected" ? "never_placed" : undefined,
  latencyMs: 3,
  atMs,
});

/** A killed run's placements 10 days ago (each kind of answer), and a cleanly stopped run's. */
function oldRuns(w: JournalWriter): number {
  const killed = w.beginRun({ account: ACCOUNT, session: "old", atMs: SENT - 1_000, tokens: [] });
  for (const cid of [WIRE, AMBIGUOUS, CANCELLED, REJECTED, AMBIGUOUS_ENDED])
    sentHarnessBid(w, killed, cid, SENT);
  ambiguousAnswer(w, killed, AMBIGUOUS, SENT, "timeout", 5_000);
  w.outcome(killed, answer(CANCELLED, "accepted", SENT + 5));
  w.outcome(killed, answer(CANCELLED, "done", SENT + 10, "cancel"));
  w.outcome(killed, answer(REJECTED, "rejected", SENT + 5));
  ambiguousAnswer(w, killed, AMBIGUOUS_ENDED, SENT, "timeout", 5_000);
  w.outcome(killed, answer(AMBIGUOUS_ENDED, "done", SENT + 6_000, "cancel"));
  const clean = w.beginRun({ account: ACCOUNT, session: "clean", atMs: SENT + DAY, tokens: [] });
  sentHarnessBid(w, clean, CLEAN, SENT + DAY);
  w.endRun(clean, SENT + DAY + 1_000, "signal", 0);
  return killed;
}

const intentCids = (db: Database) =>
  (db.prepare("SELECT client_order_id AS c FROM intents ORDER BY id").all() as { c: string }[]).map(
    (r) => r.c,
  );

describe("journal retention and placements without an answer", () => {
  it("keeps an unanswered placement of a killed run past the retention, until a start answers it", () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    const killed = oldRuns(w);
    const pruner = new JournalPruner(db);
    pruner.pass(T0 - RETENTION);

    // Before the fix: [] — the intents were pruned, and the restart searched for nothing.
    const next = w.beginRun({ account: ACCOUNT, session: "new", atMs: T0, tokens: [] });
    expect([...readRestore(db, ACCOUNT, next).unanswered.keys()]).toEqual([WIRE, AMBIGUOUS]);
    // The answered ones are gone, the clean run's too: the file stays bounded.
    expect(intentCids(db)).toEqual([WIRE, AMBIGUOUS]);

    // The start finds one and proves the other never placed; once those answers age out, all is pruned
    // and nothing reads as unanswered again.
    w.outcome(killed, answer(WIRE, "accepted", T0));
    w.outcome(killed, answer(WIRE, "done", T0 + 1_000, "cancel"));
    w.outcome(killed, answer(AMBIGUOUS, "rejected", T0));
    pruner.pass(T0 + 2 * RETENTION);
    expect(intentCids(db)).toEqual([]);
    const later = w.beginRun({ account: ACCOUNT, session: "later", atMs: T0 + 2 * RETENTION, tokens: [] });
    expect(readRestore(db, ACCOUNT, later).unanswered.size).toBe(0);
    db.close();
  });

  it("the restart after the retention still applies the fill the order made while mm was down", async () => {
    const db = openJournalDb(journalPath());
    const w = new JournalWriter(db);
    oldRuns(w);
    new JournalPruner(db).pass(T0 - RETENTION);
    const restore = readRestore(
      db,
      ACCOUNT,
      w.beginRun({ account: ACCOUNT, session: "new", atMs: T0, tokens: [] }),
    );
    db.close();

    const order = harnessBid({
      id: "o-wire",
      clientOrderId: WIRE,
      status: "FILLED",
      createdAtMs: SENT,
      updatedAtMs: SENT + DAY,
    });
    const h = new Harness({ options: { restore } });
    h.crowdQuote("11", "0.48", "0.52");
    h.exchange.trades = async () => ({
      trades: [harnessBidFill("t-down", "o-wire", SENT + DAY)],
      nextCursor: null,
    });
    const byId = h.exchange.order.bind(h.exchange);
    h.exchange.order = async (id) => (id === "o-wire" ? order : byId(id));
    const byCid = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window) =>
      ids.includes(WIRE) ? { orders: [order], complete: true } : byCid(ids, window);
    await h.engine.start();
    await h.run(1_000);
    expect(h.eventsOf("fill").map((e) => e.fill.tradeId)).toEqual(["t-down"]);
    expect(h.engine.account("11").sizeMicro).toBe(3_000_000n);
  });
});
