import { describe, expect, it } from "vitest";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { Harness, T0 } from "../engine/support/harness.js";
import { harnessBid, harnessBidFill } from "../engine/support/harness-records.js";
import { ACCOUNT, journalPath, sentHarnessBid } from "./support.js";

/*
 * Review 16 (journal). The journal writes a placement's intent before the request leaves, and its
 * answer when it comes back. A run killed while the request is on the wire (the fault suite's
 * "SIGKILLed mid-quoting": the requote burst after a fill is in flight) leaves the intent with no
 * answer; a placement answered ambiguously (timeout, 5xx) that the reconciler later found resting
 * leaves an `ambiguous` row and never the exchange's orderId. Either order may rest and fill while
 * mm is down. The README promises that "a fill made while mm was down (a resting order of a crashed
 * run filled before the restart) is applied at the next start". Restore only offers placements
 * journaled `accepted` (MAY_REST), so these orders are unknown to the restart: their down-time fill
 * is never applied nor journaled; its shares vanish into the start-up baseline and its PnL is lost
 * from the accounts and from `mm report`, though the journal holds the order's intent (token, side,
 * price, size) and the exchange's record carries the clientOrderId.
 */

const YES = "11"; // the Harness's first token
const ORDER_ID = "o-in-flight";
const CID = "mm-old-0000000000-b0-1";
const PLACED_AT = T0 - 3_600_000;
const FILLED_AT = T0 - 1_800_000;

const exchangeOrder = harnessBid({
  id: ORDER_ID,
  clientOrderId: CID,
  status: "FILLED",
  createdAtMs: PLACED_AT,
  updatedAtMs: FILLED_AT,
});

const downTimeTrade = harnessBidFill("t-down", ORDER_ID, FILLED_AT);

/** A journal whose killed run sent one bid of 3 on YES; `answer` is what it journaled of the reply. */
function restoreAfterKill(answer: "none" | "ambiguous" | "accepted") {
  const db = openJournalDb(journalPath());
  const w = new JournalWriter(db);
  const killed = w.beginRun({ account: ACCOUNT, session: "old", atMs: PLACED_AT - 1_000, tokens: [] });
  sentHarnessBid(w, killed, CID, PLACED_AT);
  if (answer !== "none") {
    w.outcome(killed, {
      op: "place",
      clientOrderId: CID,
      marketId: "m1",
      outcome: answer,
      orderId: answer === "accepted" ? ORDER_ID : undefined,
      code: answer === "ambiguous" ? "timeout" : undefined,
      latencyMs: 5_000,
      atMs: PLACED_AT + 5_000,
    });
  }
  // An account row of YES (flat), as the killed run's restore or fills would have left.
  w.account(killed, PLACED_AT, "snapshot", YES, EMPTY_ACCOUNT, 500_000);
  const next = w.beginRun({ account: ACCOUNT, session: "new", atMs: T0, tokens: [] });
  const restore = readRestore(db, ACCOUNT, next);
  db.close();
  return restore;
}

async function restartWith(restore: ReturnType<typeof restoreAfterKill>): Promise<Harness> {
  const h = new Harness({ options: { restore } });
  h.crowdQuote(YES, "0.48", "0.52");
  h.exchange.trades = async () => ({ trades: [downTimeTrade], nextCursor: null });
  const order = h.exchange.order.bind(h.exchange);
  h.exchange.order = async (id) => (id === ORDER_ID ? exchangeOrder : order(id));
  const byCid = h.exchange.ordersByClientId.bind(h.exchange);
  h.exchange.ordersByClientId = async (ids, window) =>
    ids.includes(CID) ? { orders: [exchangeOrder], complete: true } : byCid(ids, window);
  await h.engine.start();
  await h.run(1_000);
  return h;
}

describe("journal review: a placement whose acceptance the killed run never journaled", () => {
  it("control: journaled accepted, its down-time fill is applied at the restart", async () => {
    const h = await restartWith(restoreAfterKill("accepted"));
    expect(h.eventsOf("fill").map((e) => e.fill.tradeId)).toEqual(["t-down"]);
    expect(h.engine.account(YES).sizeMicro).toBe(3_000_000n);
  });

  it("killed while the placement was on the wire (intent, no answer): its down-time fill is applied", async () => {
    const h = await restartWith(restoreAfterKill("none"));
    expect(h.eventsOf("fill").map((e) => e.fill.tradeId)).toEqual(["t-down"]);
    expect(h.engine.account(YES).sizeMicro).toBe(3_000_000n);
  });

  it("answered ambiguously (the order rested after all): its down-time fill is applied", async () => {
    const h = await restartWith(restoreAfterKill("ambiguous"));
    expect(h.eventsOf("fill").map((e) => e.fill.tradeId)).toEqual(["t-down"]);
    expect(h.engine.account(YES).sizeMicro).toBe(3_000_000n);
  });
});
