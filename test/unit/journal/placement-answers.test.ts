import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { JournalRecorder } from "../../../src/journal/recorder.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { createLogger } from "../../../src/observability/logger.js";
import { collectingStream } from "../../support/collecting-stream.js";
import { ACCOUNT, FakeSource, journalPath } from "./support.js";

/*
 * A placement whose answer the journal never got (killed with it on the wire, or answered
 * ambiguously) is offered by restore as `unanswered` until an answer is journaled: the start-up
 * reconcile's lookup by clientOrderId (`placement_resolved`), or, within the run, the orderId the
 * reconciler found for an ambiguous one. Once journaled accepted, a later restart restores it as an
 * order that may rest (its fills made while mm was down found by orderId).
 */

const T0 = Date.UTC(2025, 5, 1, 12);
const CID = "mm-old-0000000000-b0-1";

const order = { marketId: "m1", side: "buy", level: 0, priceMicro: 400_000, sizeMicro: 3_000_000n } as const;
const intent: PlaceIntent = {
  kind: "place",
  tokenId: "t1",
  marketId: "m1",
  clientOrderId: CID,
  quote: { side: "buy", level: 0, priceMicro: 400_000, sizeMicro: 3_000_000n },
  urgencyTicks: 0,
};

function killedRunWithIntent() {
  const db = openJournalDb(journalPath());
  const writer = new JournalWriter(db);
  const killed = writer.beginRun({ account: ACCOUNT, session: "old", atMs: T0 - 10_000, tokens: [] });
  writer.intent(killed, { clientOrderId: CID, tokenId: "t1", ...order, sent: true, atMs: T0 - 5_000 });
  return { db, writer, killed };
}

function recorder(
  writer: JournalWriter,
  run: number,
  unanswered?: ReturnType<typeof readRestore>["unanswered"],
) {
  const logger = createLogger({ level: "error", pretty: false, destination: collectingStream() });
  const clock = new SimClock(T0);
  return new JournalRecorder({
    writer,
    run,
    clock,
    logger,
    snapshotIntervalMs: 0,
    ...(unanswered === undefined ? {} : { unanswered }),
  });
}

describe("journal: answers of placements found after the fact", () => {
  it("an unanswered placement found at start is journaled accepted in its run: the next restart restores it by orderId", () => {
    const { db, writer, killed } = killedRunWithIntent();
    const r2 = writer.beginRun({ account: ACCOUNT, session: "s2", atMs: T0, tokens: [] });
    const first = readRestore(db, ACCOUNT, r2);
    expect([...first.unanswered]).toEqual([
      [CID, { run: killed, tokenId: "t1", marketId: "m1", atMs: T0 - 5_000 }],
    ]);
    expect(first.orders.size).toBe(0);

    recorder(writer, r2, first.unanswered).onEvent({
      type: "placements_resolved",
      atMs: T0 + 1_000,
      placements: [{ clientOrderId: CID, orderId: "o1", marketId: "m1", status: "OPEN" }],
    });
    // r2 killed too: the next start knows the order by its id, and no longer as unanswered.
    const r3 = writer.beginRun({ account: ACCOUNT, session: "s3", atMs: T0 + 60_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, r3);
    expect([...next.orders]).toEqual([["o1", CID]]);
    expect(next.orderTokens.get("o1")).toBe("t1");
    expect(next.unanswered.size).toBe(0);
    db.close();
  });

  it("one found ended (FILLED) is journaled closed as well; one not found, never placed: neither is offered again", () => {
    const { db, writer } = killedRunWithIntent();
    writer.intent(1, { clientOrderId: `${CID}0`, tokenId: "t1", ...order, sent: true, atMs: T0 - 4_000 });
    const r2 = writer.beginRun({ account: ACCOUNT, session: "s2", atMs: T0, tokens: [] });
    const rec = recorder(writer, r2, readRestore(db, ACCOUNT, r2).unanswered);
    rec.onEvent({
      type: "placements_resolved",
      atMs: T0,
      placements: [
        { clientOrderId: CID, orderId: "o1", marketId: "m1", status: "FILLED" },
        { clientOrderId: `${CID}0`, orderId: undefined, marketId: undefined, status: undefined },
      ],
    });
    const r3 = writer.beginRun({ account: ACCOUNT, session: "s3", atMs: T0 + 60_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, r3);
    expect(next.orders.size).toBe(0);
    expect(next.unanswered.size).toBe(0);
    db.close();
  });

  it("the answers found at start are journaled in one transaction, however many", () => {
    const { db } = killedRunWithIntent();
    // Each write notes whether a transaction was open around it, and each top-level batch is counted.
    const inTransaction: boolean[] = [];
    let batches = 0;
    class Watching extends JournalWriter {
      override outcome(...a: Parameters<JournalWriter["outcome"]>): void {
        inTransaction.push(db.inTransaction);
        super.outcome(...a);
      }
      override batch<T>(fn: () => T): T {
        if (!db.inTransaction) batches++;
        return super.batch(fn);
      }
    }
    const writer = new Watching(db);
    const cids = Array.from({ length: 50 }, (_, i) => `${CID}${i}`);
    for (const cid of cids)
      writer.intent(1, { clientOrderId: cid, tokenId: "t1", ...order, sent: true, atMs: T0 - 4_000 });
    const r2 = writer.beginRun({ account: ACCOUNT, session: "s2", atMs: T0, tokens: [] });
    const rec = recorder(writer, r2, readRestore(db, ACCOUNT, r2).unanswered);
    batches = 0;
    rec.onEvent({
      type: "placements_resolved",
      atMs: T0,
      placements: cids.map((cid) => ({
        clientOrderId: cid,
        orderId: undefined,
        marketId: undefined,
        status: undefined,
      })),
    });
    expect(inTransaction).toEqual(cids.map(() => true));
    expect(batches).toBe(1);
    db.close();
  });

  it("a placement answered ambiguously is journaled accepted once the engine holds it live with an orderId", () => {
    const db = openJournalDb(journalPath());
    const writer = new JournalWriter(db);
    const r1 = writer.beginRun({ account: ACCOUNT, session: "s1", atMs: T0, tokens: [] });
    const rec = recorder(writer, r1);
    const live: { clientOrderId: string; orderId: string | undefined }[] = [
      { clientOrderId: CID, orderId: undefined },
    ];
    const source = Object.assign(new FakeSource(1), { liveOrders: () => live });
    rec.attach(source);
    rec.onEvent({ type: "place_sent", atMs: T0, tokenId: "t1", clientOrderId: CID, order });
    rec.onEvent({
      type: "place_outcome",
      atMs: T0 + 5_000,
      intent,
      outcome: "ambiguous",
      code: "timeout",
      latencyMs: 5_000,
    });
    const reconciled = () => rec.onEvent({ type: "reconcile", atMs: T0 + 6_000, summary: {} as never });
    reconciled(); // not resolved yet
    live[0] = { clientOrderId: CID, orderId: "o-amb" };
    reconciled();
    // Killed here: the next start knows the order by its id.
    const r2 = writer.beginRun({ account: ACCOUNT, session: "s2", atMs: T0 + 60_000, tokens: [] });
    const next = readRestore(db, ACCOUNT, r2);
    expect([...next.orders]).toEqual([["o-amb", CID]]);
    expect(next.unanswered.size).toBe(0);
    db.close();
  });
});
