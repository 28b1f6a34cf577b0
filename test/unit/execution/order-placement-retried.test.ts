import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import {
  applyPlaceOutcome,
  markPlacementDropped,
  markPlacementSent,
} from "../../../src/execution/order-manager-outcomes.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { reconcileOpenOrders } from "../../../src/execution/reconcile-open-orders.js";
import { order, remote, TOKEN } from "./reconcile-support.js";

const placement = order("c");

const limited: PlaceOrderOutcome = {
  kind: "rejected",
  code: "rate_limited",
  retryable: true,
  error: new ExchangeError({
    code: "rate_limited",
    message: "429",
    outcome: "retryable",
    endpoint: "POST /api/orders/place",
    httpStatus: 429,
  }),
};

/** A placement sent once (the store marks it at the send), then re-queued by the queue. */
function sentOnce(): OrderStore {
  const s = new OrderStore();
  s.track(placement, 0);
  markPlacementSent(s, "c", 10);
  return s;
}

describe("a placement sent once and re-queued, then given up by the queue", () => {
  it("its retryable reject ends it rejected: its level is free again (the queue's report)", () => {
    const s = sentOnce();
    expect(applyPlaceOutcome(s, "c", limited, 20)).toEqual({ applied: true, reconcile: false });
    expect(s.get("c")).toMatchObject({ state: "rejected", lastCode: "rate_limited", updatedAtMs: 20 });
    expect(s.live(TOKEN)).toEqual([]);
  });

  it("should the exchange list it open after all, the reconciler finds it by clientOrderId: an orphan to cancel", () => {
    const s = sentOnce();
    applyPlaceOutcome(s, "c", limited, 20);
    const d = reconcileOpenOrders(s.all(), [remote({ id: "o1", clientOrderId: "c" })], 30_000);
    expect(d.orphans.map((o) => o.id)).toEqual(["o1"]);
    expect(d.updates).toEqual([]);
  });

  it("a drop report naming a sent placement makes it unknown, never leaves it placing", () => {
    const s = sentOnce();
    expect(markPlacementDropped(s, "c", 20)).toBe(true);
    expect(s.get("c")?.state).toBe("unknown");
    expect(s.illegalTransitions).toBe(0);
    // Absent from the open list: looked up by clientOrderId in the history.
    expect(reconcileOpenOrders(s.all(), [], 30_000).unresolved.map((o) => o.clientOrderId)).toEqual(["c"]);
    // Listed open: found and tracked as open.
    const found = reconcileOpenOrders(s.all(), [remote({ id: "o1", clientOrderId: "c" })], 30_000);
    expect(found.updates).toMatchObject([
      { clientOrderId: "c", orderId: "o1", state: "open", reason: "found_open" },
    ]);
  });

  it("a queued placement never sent is still cancelled by the drop (it never existed)", () => {
    const s = new OrderStore();
    s.track(placement, 0);
    expect(markPlacementDropped(s, "c", 20)).toBe(true);
    expect(s.get("c")?.state).toBe("cancelled");
  });
});
