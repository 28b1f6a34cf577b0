import { describe, expect, it } from "vitest";
import { HttpExchange, WINDOW_PAGES } from "../../../src/engine/http-exchange.js";
import type { ExchangeHttpClient } from "../../../src/exchange/client.js";
import type { Order } from "../../../src/exchange/types.js";
import { EMPTY_ACCOUNT } from "../../../src/execution/inventory-math.js";
import type { TimeWindow } from "../../../src/execution/reconcile-run.js";
import { openJournalDb } from "../../../src/journal/open.js";
import { readRestore } from "../../../src/journal/restore.js";
import { JournalWriter } from "../../../src/journal/writer.js";
import { ACCOUNT, ambiguousAnswer, journalPath, sentHarnessBid } from "../journal/support.js";
import { Harness, T0 } from "./support/harness.js";
import { harnessBid } from "./support/harness-records.js";

/*
 * Review 16 (restart), fixed. resolveUnanswered looked the killed run's unanswered placements up
 * with ONE history search over [oldest send − 60 s, newest send + 60 s], and
 * HttpExchange.ordersByClientId read at most 5 pages of 200 of it without saying it stopped early;
 * every placement not in those 1,000 records and older than unknownGraceMs was journaled `rejected
 * never_placed` — for good: restore never offers it again. A market maker places thousands of
 * orders an hour, so a run with one ambiguous placement early on and one killed on the wire hours
 * later spans far more than 1,000 records; which fell off depended on the page order the spec does
 * not show. Now the history is searched around each cluster of send times, each window paged to its
 * end within WINDOW_PAGES, and a search cut short says so: what it did not find is left for the next
 * start, since a capped search proves nothing about absence.
 */

const YES = "11";
const EARLY = "mm-old-0000000000-b0-1";
const LATE = "mm-old-0000000000-b0-9999";
const EARLY_AT = T0 - 6 * 3_600_000;
const LATE_AT = T0 - 120_000;
/** A third placement the exchange never had. */
const LOST = "mm-old-0000000000-b0-10000";
const LOST_AT = T0 - 110_000;

function order(id: string, cid: string, atMs: number, status: string): Order {
  return harnessBid({ id, clientOrderId: cid, status, createdAtMs: atMs });
}

function restoreAfterKill() {
  const db = openJournalDb(journalPath());
  const w = new JournalWriter(db);
  const killed = w.beginRun({ account: ACCOUNT, session: "old", atMs: EARLY_AT - 1_000, tokens: [] });
  for (const [cid, at] of [
    [EARLY, EARLY_AT],
    [LATE, LATE_AT],
    [LOST, LOST_AT],
  ] as const) {
    sentHarnessBid(w, killed, cid, at);
  }
  ambiguousAnswer(w, killed, EARLY, EARLY_AT, "server_error", 100);
  w.account(killed, EARLY_AT, "snapshot", YES, EMPTY_ACCOUNT, 500_000);
  const next = w.beginRun({ account: ACCOUNT, session: "new", atMs: T0, tokens: [] });
  const restore = readRestore(db, ACCOUNT, next);
  db.close();
  return restore;
}

/**
 * The history: EARLY, `others` other orders of the run, LATE — in `order` page order, pages of 200
 * with a cursor to the next. It ignores the window asked for (recorded in `windows`), as if the run
 * had placed all of them around each send.
 */
function historyClient(
  pageOrder: "newest" | "oldest",
  others: number,
  windows: TimeWindow[] = [],
): ExchangeHttpClient {
  const all: Order[] = [order("o-early", EARLY, EARLY_AT, "FILLED")];
  for (let i = 0; i < others; i++)
    all.push(order(`o-${i}`, `mm-old-0000000000-s0-${i + 2}`, EARLY_AT + (i + 1) * 10_000, "CANCELLED"));
  all.push(order("o-late", LATE, LATE_AT, "FILLED"));
  if (pageOrder === "newest") all.reverse();
  return {
    orders: {
      async *historyPages(q: { from?: string; to?: string }) {
        windows.push({ fromMs: Date.parse(q.from ?? ""), toMs: Date.parse(q.to ?? "") });
        for (let i = 0; i < all.length; i += 200) {
          const nextCursor = i + 200 < all.length ? String(i + 200) : null;
          yield { walletAddress: "0xb0", orders: all.slice(i, i + 200), nextCursor };
        }
      },
    },
  } as unknown as ExchangeHttpClient;
}

async function restart(client: ExchangeHttpClient): Promise<Harness> {
  const h = new Harness({ options: { restore: restoreAfterKill() } });
  h.crowdQuote(YES, "0.48", "0.52");
  const http = new HttpExchange(client);
  h.exchange.ordersByClientId = (ids, window) => http.ordersByClientId(ids, window);
  await h.engine.start();
  await h.run(1_000);
  return h;
}

function resolved(h: Harness): Map<string, string | undefined> {
  return new Map(
    h
      .eventsOf("placements_resolved")
      .flatMap((e) => e.placements)
      .map((p) => [p.clientOrderId, p.orderId]),
  );
}

describe("restart: unanswered placements looked up in the order history", () => {
  it.each([
    ["newest", 100],
    ["oldest", 100],
    ["newest", 1_100],
    ["oldest", 1_100],
  ] as const)(
    "history paged %s first, %i other orders in the window: each placement in it is found, the one not in it never placed",
    async (pageOrder, others) => {
      const h = await restart(historyClient(pageOrder, others));
      expect(resolved(h)).toEqual(
        new Map([
          [EARLY, "o-early"],
          [LATE, "o-late"],
          [LOST, undefined],
        ]),
      );
    },
  );

  it("searches the minutes around each cluster of sends, not the hours between them", async () => {
    const windows: TimeWindow[] = [];
    await restart(historyClient("newest", 10, windows));
    // EARLY alone; LATE and LOST (10 s apart) together; each ±60 s (the harness's clock offset is 0).
    expect(windows).toEqual([
      { fromMs: EARLY_AT - 60_000, toMs: EARLY_AT + 60_000 },
      { fromMs: LATE_AT - 60_000, toMs: LOST_AT + 60_000 },
    ]);
  });

  it.each(["newest", "oldest"] as const)(
    "history paged %s first past the search's page bound: what it found is resolved, the rest left for the next start",
    async (pageOrder) => {
      const h = await restart(historyClient(pageOrder, WINDOW_PAGES * 200));
      const r = resolved(h);
      // Each search reads WINDOW_PAGES pages: the placement on the first page is found, the one on
      // the last is not — and neither it nor LOST (its search as short) is journaled never placed.
      const first = pageOrder === "newest" ? LATE : EARLY;
      expect([...r.keys()]).toEqual([first]);
      expect(r.get(first)).toBe(first === LATE ? "o-late" : "o-early");
      expect(h.logs.text()).toContain("left for the next start");
    },
  );
});
