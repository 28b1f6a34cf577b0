import { describe, expect, it } from "vitest";
import { OrderStore } from "../../../src/execution/order-store.js";
import { fill, order, TOKEN } from "./reconcile-support.js";

describe("OrderStore.prune with a grace for orders the exchange never knew", () => {
  it("forgets dropped and rejected placements after the short grace, exchange orders after the long one", () => {
    const s = new OrderStore();
    s.track(order("dropped"), 0);
    s.apply("dropped", { kind: "dropped" }, 10); // superseded in the queue: never sent
    s.track(order("rejected"), 0);
    s.apply("rejected", { kind: "sent" }, 5);
    s.apply("rejected", { kind: "rejected", code: "post_only_would_cross" }, 10);
    s.track(order("cancelled"), 0);
    s.apply("cancelled", { kind: "sent" }, 5);
    s.apply("cancelled", { kind: "accepted", orderId: "o1", status: "OPEN", filledMicro: 0n }, 6);
    s.recordFill(fill({ tradeId: "t1", orderId: "o1", clientOrderId: "cancelled", sizeMicro: 1_000_000n }));
    s.apply("cancelled", { kind: "cancel_requested" }, 8);
    s.apply("cancelled", { kind: "cancel_confirmed" }, 10);
    s.track(order("open"), 0);
    s.apply("open", { kind: "sent" }, 5);
    s.apply("open", { kind: "accepted", orderId: "o2", status: "OPEN", filledMicro: 0n }, 6);

    expect(s.prune(0, 10)).toBe(0); // nothing changed before 10
    expect(s.prune(0, 11)).toBe(2); // the two the exchange never knew
    expect(s.get("dropped")).toBeUndefined();
    expect(s.get("rejected")).toBeUndefined();
    expect(s.get("cancelled")?.filledMicro).toBe(1_000_000n); // kept with its fills until the long cut
    expect(s.prune(11, 1_000)).toBe(1);
    expect(s.byOrderId("o1")).toBeUndefined();
    expect(s.get("open")?.state).toBe("open"); // live orders are never pruned
    expect(s.live(TOKEN).map((o) => o.clientOrderId)).toEqual(["open"]);
  });

  it("without the second cut-off every terminal order waits for the first", () => {
    const s = new OrderStore();
    s.track(order("dropped"), 0);
    s.apply("dropped", { kind: "dropped" }, 10);
    expect(s.prune(10)).toBe(0);
    expect(s.prune(11)).toBe(1);
  });
});

/**
 * An order completed by its fills changed then: prune's horizon runs from that moment, not from when
 * it was placed. Otherwise an order that rested longer than the horizon is forgotten (with its fills)
 * by the next reconcile, and every later backfill finds its trades unmapped and fetches it again.
 */
describe("OrderStore: becoming filled is a change (prune keeps the order for the full horizon)", () => {
  const HORIZON = 600_000;
  const accepted = (s: OrderStore, cid: string, orderId: string) => {
    s.track(order(cid), 0);
    s.apply(cid, { kind: "sent" }, 0);
    s.apply(cid, { kind: "accepted", orderId, status: "OPEN", filledMicro: 0n }, 1);
  };

  it("through its fills (recordFill): stamped with the completing fill's time", () => {
    const s = new OrderStore();
    accepted(s, "c", "o1");
    const filledAt = 1_000_000;
    s.recordFill(fill({ tradeId: "t1", orderId: "o1", sizeMicro: 4_000_000n, tsMs: filledAt - 10 }));
    expect(s.get("c")?.updatedAtMs).toBe(1); // a partial fill is not a state change
    s.recordFill(fill({ tradeId: "t2", orderId: "o1", sizeMicro: 6_000_000n, tsMs: filledAt }));
    expect(s.get("c")).toMatchObject({ state: "filled", updatedAtMs: filledAt });
    expect(s.prune(filledAt + 1_000 - HORIZON)).toBe(0);
    expect(s.byOrderId("o1")?.filledMicro).toBe(10_000_000n);
    expect(s.prune(filledAt + 1)).toBe(1); // a full horizon after the fill, it goes
  });

  it("through the reconciler (remote filledQty reaching the size): stamped with the reconcile's time", () => {
    const s = new OrderStore();
    accepted(s, "c", "o1");
    const now = 2_000_000;
    s.reconcile(
      { clientOrderId: "c", orderId: "o1", state: "open", remoteFilledMicro: 10_000_000n, reason: "x" },
      now,
    );
    expect(s.get("c")).toMatchObject({ state: "filled", updatedAtMs: now });
    expect(s.prune(now + 1_000 - HORIZON)).toBe(0);
  });

  it("never moves the change time back (a fill stamped before the order's last change)", () => {
    const s = new OrderStore();
    accepted(s, "c", "o1");
    s.apply("c", { kind: "cancel_requested" }, 5_000);
    s.recordFill(fill({ tradeId: "t1", orderId: "o1", sizeMicro: 10_000_000n, tsMs: 4_000 }));
    expect(s.get("c")).toMatchObject({ state: "filled", updatedAtMs: 5_000 });
  });

  it("fills on an order already filled leave its change time alone", () => {
    const s = new OrderStore();
    s.track(order("c"), 0);
    s.apply("c", { kind: "sent" }, 0);
    s.apply("c", { kind: "accepted", orderId: "o1", status: "FILLED", filledMicro: 10_000_000n }, 7);
    s.recordFill(fill({ tradeId: "t1", orderId: "o1", sizeMicro: 10_000_000n, tsMs: 9_000 }));
    expect(s.get("c")).toMatchObject({ state: "filled", updatedAtMs: 7 });
  });
});
