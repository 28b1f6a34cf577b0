import { describe, expect, it } from "vitest";
import { HttpExchange } from "../../../src/engine/http-exchange.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import type { Order } from "../../../src/exchange/types.js";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { Harness, T0 } from "../engine/support/harness.js";
import { ACCOUNT, journalPath } from "../journal/support.js";

/*
 * Review 16 (restart). resolveUnanswered looks the killed run's unanswered placements up with ONE
 * history search over [oldest send − 60 s, newest send + 60 s], and HttpExchange.ordersByClientId
 * reads at most HISTORY_PAGES (5) pages of 200 of it. It does not say it stopped early, and every
 * placement not in those 1,000 records and older than unknownGraceMs is journaled `rejected
 * never_placed` — for good: restore never offers it again. A market maker places thousands of
 * orders an hour, so a run with one ambiguous placement early on (answered 5xx, later filled or
 * cancelled: bindLive forgets a placement not live at a reconcile, so it stays unanswered) and one
 * killed on the wire hours later spans far more than 1,000 records. Which of them falls off depends
 * on the page order the spec does not show ("keyset cursor over (created_at, order id)"):
 * - newest first (README's assumption): the early one, which exists (FILLED), is journaled never placed;
 * - oldest first: the one killed on the wire, which rested and filled while mm was down, is journaled
 *   never placed and its down-time fill is never applied — the loss 39a26d9 set out to fix.
 * A capped search proves nothing about absence: the not-found ones must be left for the next start
 * (or the search must cover the window).
 */

const YES = "11";
const EARLY = "mm-old-0000000000-b0-1";
const LATE = "mm-old-0000000000-b0-9999";
const EARLY_AT = T0 - 6 * 3_600_000;
const LATE_AT = T0 - 120_000;

function order(id: string, cid: string, atMs: number, status: string): Order {
  return {
    id,
    userWallet: "0xb0",
    vault: "0xb0",
    marketId: "m1",
    side: "buy",
    outcome: "YES",
    price: "0.4",
    quantity: "3",
    filledQty: status === "FILLED" ? "3" : "0",
    remainingQty: status === "FILLED" ? "0" : "3",
    expiry: 0,
    type: "limit",
    timeInForce: "gtc",
    status,
    clientOrderId: cid,
    createdAt: new Date(atMs).toISOString(),
    updatedAt: new Date(atMs).toISOString(),
  } as unknown as Order;
}

function restoreAfterKill() {
  const db = openJournalDb(journalPath());
  const w = new JournalWriter(db);
  const killed = w.beginRun({ account: ACCOUNT, session: "old", atMs: EARLY_AT - 1_000, tokens: [] });
  for (const [cid, at] of [
    [EARLY, EARLY_AT],
    [LATE, LATE_AT],
  ] as const) {
    w.intent(killed, {
      clientOrderId: cid,
      tokenId: YES,
      marketId: "m1",
      side: "buy",
      level: 0,
      priceMicro: 400_000,
      sizeMicro: 3_000_000n,
      sent: true,
      atMs: at,
    });
  }
  w.outcome(killed, {
    op: "place",
    clientOrderId: EARLY,
    marketId: "m1",
    outcome: "ambiguous",
    orderId: undefined,
    code: "server_error",
    latencyMs: 100,
    atMs: EARLY_AT + 100,
  });
  w.account(killed, EARLY_AT, "snapshot", YES, EMPTY_ACCOUNT, 500_000);
  const next = w.beginRun({ account: ACCOUNT, session: "new", atMs: T0, tokens: [] });
  const restore = readRestore(db, ACCOUNT, next);
  db.close();
  return restore;
}

/** The window's history: EARLY, `others` other orders of the run, LATE — in `order` page order, pages of 200. */
function historyClient(pageOrder: "newest" | "oldest", others: number): ExchangeHttpClient {
  const all: Order[] = [order("o-early", EARLY, EARLY_AT, "FILLED")];
  for (let i = 0; i < others; i++)
    all.push(order(`o-${i}`, `mm-old-0000000000-s0-${i + 2}`, EARLY_AT + (i + 1) * 10_000, "CANCELLED"));
  all.push(order("o-late", LATE, LATE_AT, "FILLED"));
  if (pageOrder === "newest") all.reverse();
  return {
    orders: {
      async *historyPages() {
        for (let i = 0; i < all.length; i += 200)
          yield { walletAddress: "0xb0", orders: all.slice(i, i + 200), nextCursor: null };
      },
    },
  } as unknown as ExchangeHttpClient;
}

describe("restart review: an unanswered placement past the history search's page cap", () => {
  it.each([
    ["newest", 100],
    ["oldest", 100],
    ["newest", 1_100],
    ["oldest", 1_100],
  ] as const)(
    "history paged %s first, %i other orders in the window: no placement in the history is journaled never placed",
    async (pageOrder, others) => {
      const h = new Harness({ options: { restore: restoreAfterKill() } });
      h.crowdQuote(YES, "0.48", "0.52");
      const http = new HttpExchange(historyClient(pageOrder, others));
      h.exchange.ordersByClientId = (ids, window) => http.ordersByClientId(ids, window);
      await h.engine.start();
      await h.run(1_000);
      const neverPlaced = h
        .eventsOf("placement_resolved")
        .filter((e) => e.orderId === undefined)
        .map((e) => e.clientOrderId);
      expect(neverPlaced).toEqual([]);
    },
  );
});
