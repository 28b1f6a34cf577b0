import { describe, expect, it } from "vitest";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import { MAX_UNSURE_SEARCHES, UnsureSearches } from "../../../src/execution/history-search.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import type { ReconcileState } from "../../../src/execution/reconcile-fills.js";
import {
  type ClientIdSearch,
  type ReconcileSource,
  runReconcile,
  type TimeWindow,
  UNSURE_GIVEN_UP,
} from "../../../src/execution/reconcile-run.js";
import { order, remote, TOKEN } from "./reconcile-support.js";

/*
 * The running reconcile searches the order history (by clientOrderId, around the send time) for a
 * placement answered ambiguously and not on the open list. Not found once its grace (30 s) had
 * passed, it was marked `rejected` never_placed even when the search stopped at its page bound with
 * history of the window still unread: the order may be there (placed, since filled or cancelled), and
 * its level was quoted again on a guess. The start-up path (resolveUnanswered) already counts only a
 * complete search as proof; the running reconcile now does too: kept unknown and searched again at the
 * next reconcile, up to MAX_UNSURE_SEARCHES cut-short searches.
 */

const SENT = 1_000;
const AFTER_GRACE = SENT + 60_000;
const opts = { tokenOf: () => TOKEN, unknownGraceMs: 30_000 };

/** An exchange listing nothing open, whose history search finds `found` and is `complete` or not. */
class History implements ReconcileSource {
  complete = false;
  found: Order[] = [];
  readonly searches: { ids: readonly string[]; window: TimeWindow | undefined }[] = [];
  async openOrders(): Promise<Order[]> {
    return [];
  }
  async order(): Promise<Order> {
    throw new Error("no order is looked up by id here");
  }
  async ordersByClientId(ids: readonly string[], window?: TimeWindow): Promise<ClientIdSearch> {
    this.searches.push({ ids, window });
    return { orders: this.found, complete: this.complete };
  }
  async trades(): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> {
    return { trades: [], nextCursor: null };
  }
}

function ambiguous(unsure: UnsureSearches | undefined): ReconcileState {
  const orders = new OrderStore();
  orders.track(order("amb"), SENT);
  orders.apply("amb", { kind: "sent" }, SENT);
  orders.apply("amb", { kind: "ambiguous" }, SENT + 50);
  return { orders, inventory: new Inventory(), ...(unsure === undefined ? {} : { unsure }) };
}

describe("the running reconcile: an unknown placement not found by a history search cut short", () => {
  it("is kept unknown (not never_placed) and searched again at the next reconcile", async () => {
    const src = new History();
    const state = ambiguous(new UnsureSearches());
    const first = await runReconcile(src, state, AFTER_GRACE, opts);
    // Before the fix: rejected never_placed at once.
    expect(state.orders.get("amb")?.state).toBe("unknown");
    expect(first.updates).toEqual([]);
    expect(first.unsure).toEqual(["amb"]);
    expect(first.pending).toBe(0); // no 2 s follow-up: the next periodic reconcile searches again

    // The next search reads the whole window and finds it: filled, not never placed.
    src.found = [remote({ id: "o-amb", clientOrderId: "amb", status: "FILLED", filledQty: "10" })];
    src.complete = true;
    const second = await runReconcile(src, state, AFTER_GRACE + 30_000, opts);
    expect(src.searches.map((s) => s.ids)).toEqual([["amb"], ["amb"]]);
    expect(state.orders.get("amb")).toMatchObject({ state: "filled", orderId: "o-amb" });
    expect(second.unsure).toEqual([]);
  });

  it("only a complete search marks it never placed", async () => {
    const src = new History();
    const state = ambiguous(new UnsureSearches());
    await runReconcile(src, state, AFTER_GRACE, opts);
    src.complete = true;
    const r = await runReconcile(src, state, AFTER_GRACE + 30_000, opts);
    expect(r.updates).toEqual([{ clientOrderId: "amb", state: "rejected", reason: "never_placed" }]);
  });

  it(`is given up after ${MAX_UNSURE_SEARCHES} cut-short searches (not open on the exchange: its level is freed)`, async () => {
    const src = new History();
    const unsure = new UnsureSearches();
    const state = ambiguous(unsure);
    for (let k = 1; k < MAX_UNSURE_SEARCHES; k++) {
      const r = await runReconcile(src, state, AFTER_GRACE + k * 30_000, opts);
      expect(r.unsure).toEqual(["amb"]);
      expect(state.orders.get("amb")?.state).toBe("unknown");
    }
    const last = await runReconcile(src, state, AFTER_GRACE + MAX_UNSURE_SEARCHES * 30_000, opts);
    expect(last.givenUp).toEqual(["amb"]);
    expect(last.updates).toEqual([{ clientOrderId: "amb", state: "rejected", reason: UNSURE_GIVEN_UP }]);
    expect(src.searches).toHaveLength(MAX_UNSURE_SEARCHES);
    expect(unsure.size).toBe(0);
  });

  it("within its grace a cut-short search changes nothing: pending, as before", async () => {
    const state = ambiguous(new UnsureSearches());
    const r = await runReconcile(new History(), state, SENT + 10_000, opts);
    expect(r.pending).toBe(1);
    expect(r.unsure).toEqual([]);
    expect(state.orders.get("amb")?.state).toBe("unknown");
  });
});
