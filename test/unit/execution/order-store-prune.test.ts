import { describe, expect, it } from "vitest";
import { type NewOrder, OrderStore } from "../../../src/execution/order-store.js";
import { fill, MARKET, TOKEN } from "./reconcile-support.js";

const order = (cid: string): NewOrder => ({
  clientOrderId: cid,
  tokenId: TOKEN,
  marketId: MARKET,
  side: "buy",
  level: 0,
  priceMicro: 500_000,
  sizeMicro: 10_000_000n,
});

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
