import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { applyTrade, EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { Harness, T0 } from "../engine/support/harness.js";
import { harnessBid, harnessBidFill } from "../engine/support/harness-records.js";
import { ACCOUNT, ambiguousAnswer, journalPath, sentHarnessBid } from "./support.js";

/*
 * Review 16 (restart), fixed: restore now offers every fill journaled since the oldest unanswered
 * send, whatever its clientOrderId (readUnanswered). The defect: 39a26d9 restores a placement the
 * killed run sent without a definite answer (here: answered ambiguously) by clientOrderId, looks it up at start and searches the found order's
 * trades for fills made while mm was down. Fills the killed run already journaled are kept out of that
 * search only when their row carries the placement's clientOrderId (readUnanswered:
 * `f.client_order_id IS NOT NULL` and in the unanswered set). A user_fill carries clientOrderId only
 * "when the matcher supplies it" (spec), and the engine journals the frame's value as is, so the
 * killed run may have journaled the fill with client_order_id NULL, already in the restored account.
 * Once its fee row is written it is not fee-pending either: the start-up search then applies the
 * same trade a second time — the position and cost double and `mm report` counts the fill twice.
 */

const YES = "11"; // the Harness's first token
const ORDER_ID = "o-amb";
const CID = "mm-old-0000000000-b0-1";
const PLACED_AT = T0 - 3_600_000;
const FILLED_AT = PLACED_AT + 2_000;

const exchangeOrder = harnessBid({
  id: ORDER_ID,
  clientOrderId: CID,
  status: "FILLED",
  createdAtMs: PLACED_AT,
  updatedAtMs: FILLED_AT,
});

const trade = harnessBidFill("t-1", ORDER_ID, FILLED_AT, "0");

function restoreAfterKill(fillCid: string | undefined) {
  const db = openJournalDb(journalPath());
  const w = new JournalWriter(db);
  const killed = w.beginRun({ account: ACCOUNT, session: "old", atMs: PLACED_AT - 1_000, tokens: [] });
  sentHarnessBid(w, killed, CID, PLACED_AT);
  ambiguousAnswer(w, killed, CID, PLACED_AT, "timeout", 5_000);
  // The killed run got the user_fill (no clientOrderId in the frame) and journaled it, with its fee
  // and the account it made.
  const fill: Fill = {
    tradeId: "t-1",
    orderId: ORDER_ID,
    clientOrderId: fillCid,
    tokenId: YES,
    side: "buy",
    priceMicro: 400_000,
    sizeMicro: 3_000_000n,
    tsMs: FILLED_AT,
  };
  w.fill(killed, fill, "stream");
  w.fee(fill, { asset: "usdc", amountMicro: 0n }, FILLED_AT + 10_000);
  w.account(killed, FILLED_AT, "fill", YES, applyTrade(EMPTY_ACCOUNT, "buy", 400_000, 3_000_000n), 500_000);
  const next = w.beginRun({ account: ACCOUNT, session: "new", atMs: T0, tokens: [] });
  const restore = readRestore(db, ACCOUNT, next);
  db.close();
  return restore;
}

describe("restart: a journaled fill of an unanswered placement is not applied again", () => {
  it.each([
    ["control: journaled with its clientOrderId", CID],
    ["journaled without clientOrderId (user_fill omitted it)", undefined],
  ])("%s: the killed run's fill is not re-applied by the start-up search", async (_name, fillCid) => {
    const restore = restoreAfterKill(fillCid);
    expect(restore.accounts.get(YES)?.sizeMicro).toBe(3_000_000n);
    const h = new Harness({ options: { restore } });
    h.crowdQuote(YES, "0.48", "0.52");
    h.exchange.trades = async () => ({ trades: [trade], nextCursor: null });
    const order = h.exchange.order.bind(h.exchange);
    h.exchange.order = async (id) => (id === ORDER_ID ? exchangeOrder : order(id));
    const byCid = h.exchange.ordersByClientId.bind(h.exchange);
    h.exchange.ordersByClientId = async (ids, window) =>
      ids.includes(CID) ? { orders: [exchangeOrder], complete: true } : byCid(ids, window);
    await h.engine.start();
    await h.run(1_000);
    // The order was found (the lookup ran) …
    expect(
      h
        .eventsOf("placements_resolved")
        .flatMap((e) => e.placements)
        .map((p) => p.orderId),
    ).toEqual([ORDER_ID]);
    // … and its one trade stays counted once.
    expect(h.eventsOf("fill").map((e) => e.fill.tradeId)).toEqual([]);
    expect(h.engine.account(YES).sizeMicro).toBe(3_000_000n);
  });
});
