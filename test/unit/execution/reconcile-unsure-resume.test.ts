import { describe, expect, it } from "vitest";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import {
  type ClientIdSearch,
  MAX_UNSURE_SEARCHES,
  type TimeWindow,
  UnsureSearches,
} from "../../../src/execution/history-search.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import type { ReconcileState } from "../../../src/execution/reconcile-fills.js";
import { type ReconcileSource, runReconcile } from "../../../src/execution/reconcile-run.js";
import { Harness } from "../engine/support/harness.js";
import { ambiguousBid, harnessBid } from "../engine/support/harness-records.js";
import { order, remote, TOKEN } from "./reconcile-support.js";

/*
 * Review 17 (exec). A placement not found by a history search cut short by its page bound (25 pages)
 * was searched again up to 4 more times, each from the first page of the same past window: what the
 * first missed the others missed too, at up to 125 page reads per send cluster, and then it was given
 * up though a complete search was never made. And the repeats ran at every reconcile, the 2 s
 * follow-ups and ended-order triggers included, so the 5 could be spent in seconds. A repeat now reads
 * on from where the last search stopped (the page cursor), once per reconcile interval: a window of
 * 60 pages is read to its end in 3 searches, finding the order or proving it never placed.
 */

const PAGES = 60;
const BOUND = 25; // HttpExchange's WINDOW_PAGES
const SENT = 1_000;
const AFTER_GRACE = SENT + 60_000;
const opts = { tokenOf: () => TOKEN, unknownGraceMs: 30_000 };

/**
 * An order history whose every window holds PAGES pages (of 200) of other orders (`record`, when set, on page
 * `at`), read like HttpExchange: up to BOUND pages from `resume` (a page number), the next one's
 * number as `resume` when cut short.
 */
class PagedHistory implements ReconcileSource {
  record: Order | undefined;
  at = 55;
  /** Every page read, in order. */
  readonly reads: number[] = [];
  async openOrders(): Promise<Order[]> {
    return [];
  }
  async order(): Promise<Order> {
    throw new Error("no order is looked up by id here");
  }
  async ordersByClientId(ids: readonly string[], _w?: TimeWindow, resume?: string): Promise<ClientIdSearch> {
    return this.search(ids, resume);
  }
  search(ids: readonly string[], resume: string | undefined): ClientIdSearch {
    let page = resume === undefined ? 0 : Number(resume);
    for (let n = 0; n < BOUND && page < PAGES; n++, page++) {
      this.reads.push(page);
      const r = this.record;
      if (r !== undefined && page === this.at && ids.includes(r.clientOrderId as string)) {
        return { orders: [r], complete: true };
      }
    }
    return page < PAGES
      ? { orders: [], complete: false, resume: String(page) }
      : { orders: [], complete: true };
  }
  async trades(): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> {
    return { trades: [], nextCursor: null };
  }
}

function ambiguous(): ReconcileState {
  const orders = new OrderStore();
  orders.track(order("amb"), SENT);
  orders.apply("amb", { kind: "sent" }, SENT);
  orders.apply("amb", { kind: "ambiguous" }, SENT + 50);
  return { orders, inventory: new Inventory(), unsure: new UnsureSearches() };
}

describe("a cut-short history search is read on from where it stopped", () => {
  it(`a window of ${PAGES} pages: the order on page 55 is found at the third search, each page read once`, async () => {
    const src = new PagedHistory();
    src.record = remote({ id: "o-amb", clientOrderId: "amb", status: "FILLED", filledQty: "10" });
    const state = ambiguous();
    const runs = [];
    for (let k = 0; k < 3; k++) runs.push(await runReconcile(src, state, AFTER_GRACE + k * 30_000, opts));
    expect(runs.map((r) => r.unsure)).toEqual([["amb"], ["amb"], []]);
    // Before the fix: pages 0–24 three times, never found, given up after the fifth.
    expect(state.orders.get("amb")).toMatchObject({ state: "filled", orderId: "o-amb" });
    expect(src.reads).toEqual(Array.from({ length: 56 }, (_, i) => i));
    expect(runs[2]?.answered).toMatchObject([{ clientOrderId: "amb", orderId: "o-amb", givenUp: false }]);
  });

  it("not in the window: proven never placed once a search reaches its end, not given up", async () => {
    const src = new PagedHistory();
    const state = ambiguous();
    const runs = [];
    for (let k = 0; k < MAX_UNSURE_SEARCHES; k++) {
      runs.push(await runReconcile(src, state, AFTER_GRACE + k * 30_000, opts));
    }
    expect(runs.map((r) => r.givenUp)).toEqual(runs.map(() => []));
    expect(runs[2]?.updates).toEqual([{ clientOrderId: "amb", state: "rejected", reason: "never_placed" }]);
    expect(src.reads).toHaveLength(PAGES); // 25 + 25 + 10, then nothing more to search
  });

  it("reads on once per interval, however often other reconciles run", async () => {
    const src = new PagedHistory();
    const state = ambiguous();
    const at = (ms: number) => ({ ...opts, unsureRepeat: { everyMs: 30_000, atMs: ms } });
    await runReconcile(src, state, AFTER_GRACE, at(AFTER_GRACE)); // the first search: 25 pages
    // Follow-ups every 2 s (another placement pending, ended orders): nothing read, nothing given up.
    for (let t = 2_000; t < 30_000; t += 2_000) {
      const r = await runReconcile(src, state, AFTER_GRACE + t, at(AFTER_GRACE + t));
      expect(r.givenUp).toEqual([]);
      expect(r.unsure).toEqual([]);
    }
    expect(src.reads).toHaveLength(BOUND);
    expect(state.orders.get("amb")?.state).toBe("unknown");
    const r = await runReconcile(src, state, AFTER_GRACE + 30_000, at(AFTER_GRACE + 30_000));
    expect(r.unsure).toEqual(["amb"]);
    expect(src.reads).toHaveLength(2 * BOUND);
  });
});

describe("the engine reads a cut-short search on at its reconcile interval", () => {
  it(`an ambiguous placement in a window of ${PAGES} pages is found, with reconciles every 2 s between`, async () => {
    const h = new Harness();
    const src = new PagedHistory();
    const cid = await ambiguousBid(h);
    src.record = harnessBid({ id: "o-amb", clientOrderId: cid, status: "FILLED", createdAtMs: 0 });
    // Each search: the page it started on, and when. (Within the grace every follow-up searches
    // afresh: the window is still filling.)
    const searches: { from: number; atMs: number }[] = [];
    h.exchange.ordersByClientId = async (ids, _w, resume) => {
      searches.push({ from: resume === undefined ? 0 : Number(resume), atMs: h.clock.now() });
      return src.search(ids, resume);
    };
    await h.run(35_000); // past its grace: a search cut short
    for (let k = 0; k < 10; k++) {
      await h.engine.reconcileNow();
      await h.run(2_000);
    }
    await h.run(90_000);
    expect(h.eventsOf("placements_answered").flatMap((e) => e.placements)).toMatchObject([
      { clientOrderId: cid, orderId: "o-amb", status: "FILLED", givenUp: false },
    ]);
    // Read on twice, from where each search stopped, a reconcile interval (30 s) apart at least,
    // though reconciles ran every 2 s meanwhile. Before the fix: every search from page 0.
    const lastFresh = searches.filter((x) => x.from === 0).at(-1);
    const on = searches.filter((x) => x.from > 0);
    expect(on.map((x) => x.from)).toEqual([BOUND, 2 * BOUND]);
    expect((on[0]?.atMs ?? 0) - (lastFresh?.atMs ?? 0)).toBeGreaterThanOrEqual(30_000);
    expect((on[1]?.atMs ?? 0) - (on[0]?.atMs ?? 0)).toBeGreaterThanOrEqual(30_000);
  });
});
