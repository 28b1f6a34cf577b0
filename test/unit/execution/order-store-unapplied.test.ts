import { describe, expect, it } from "vitest";
import { OrderStore } from "../../../src/execution/order-store.js";
import { fill, order, TOKEN } from "./reconcile-support.js";

const M = 1_000_000n;

/** A placement of 10 (buy, or `side`) sent and answered `status` with `filledQty`. */
function answered(
  s: OrderStore,
  cid: string,
  orderId: string,
  status: "OPEN" | "PARTIAL" | "FILLED",
  filledMicro: bigint,
  side: "buy" | "sell" = "buy",
): void {
  s.track(order(cid, { side }), 0);
  s.apply(cid, { kind: "sent" }, 1);
  s.apply(cid, { kind: "accepted", orderId, status, filledMicro }, 2);
}

/**
 * OrderStore.unapplied: per side, the shares the exchange reported filled (an answer's or a
 * listing's filledQty) that no fill intake has recorded yet. It must reach 0 once the fills are in
 * (or a side would stay held for ever), and never count an adopted order's fills from before the
 * take-over (in the baseline positions, never applied).
 */
describe("OrderStore.unapplied", () => {
  it("an answer FILLED before its fill: the 10 count until the fill is recorded", () => {
    const s = new OrderStore();
    answered(s, "b", "o1", "FILLED", 10n * M);
    expect(s.live(TOKEN)).toEqual([]); // terminal: out of live, yet not in inventory
    expect(s.unapplied(TOKEN)).toEqual({ buy: 10n * M, sell: 0n });
    s.recordFill(fill({ tradeId: "t1", orderId: "o1", sizeMicro: 6n * M }));
    expect(s.unapplied(TOKEN)).toEqual({ buy: 4n * M, sell: 0n });
    s.recordFill(fill({ tradeId: "t2", orderId: "o1", sizeMicro: 4n * M }));
    expect(s.unapplied(TOKEN)).toBeUndefined();
  });

  it("PARTIAL answers and listings on both sides add up per side; a fill before its answer counts nothing", () => {
    const s = new OrderStore();
    answered(s, "b", "o1", "PARTIAL", 4n * M);
    answered(s, "s", "o2", "PARTIAL", 3n * M, "sell");
    expect(s.unapplied(TOKEN)).toEqual({ buy: 4n * M, sell: 3n * M });
    // A reconcile lists the bid with 7 filled.
    s.reconcile(
      { clientOrderId: "b", orderId: "o1", state: "open", remoteFilledMicro: 7n * M, reason: "t" },
      3,
    );
    expect(s.unapplied(TOKEN)).toEqual({ buy: 7n * M, sell: 3n * M });
    s.recordFill(fill({ tradeId: "t9", orderId: "o2", side: "sell", sizeMicro: 3n * M }));
    expect(s.unapplied(TOKEN)).toEqual({ buy: 7n * M, sell: 0n });

    // The fill first, then the answer: nothing is on its way.
    const t = new OrderStore();
    t.track(order("c"), 0);
    t.apply("c", { kind: "sent" }, 1);
    t.recordFill(fill({ tradeId: "t1", orderId: "o3", clientOrderId: "c", sizeMicro: 10n * M }));
    t.apply("c", { kind: "accepted", orderId: "o3", status: "FILLED", filledMicro: 10n * M }, 2);
    expect(t.unapplied(TOKEN)).toBeUndefined();
  });

  it("an adopted order's filledQty at adoption is in the baseline; fills after it count until recorded", () => {
    const s = new OrderStore();
    s.adopt({ ...order("a"), orderId: "o1", filledMicro: 4n * M }, 0);
    expect(s.unapplied(TOKEN)).toBeUndefined();
    s.reconcile({ clientOrderId: "a", state: "open", remoteFilledMicro: 6n * M, reason: "t" }, 5);
    expect(s.unapplied(TOKEN)).toEqual({ buy: 2n * M, sell: 0n });
    s.recordFill(fill({ tradeId: "t3", orderId: "o1", sizeMicro: 2n * M }));
    expect(s.unapplied(TOKEN)).toBeUndefined();
  });

  it("an adopted order's fills read from the exchange are not an intake's: neither held nor subtracted twice", () => {
    const s = new OrderStore();
    s.adopt({ ...order("a"), orderId: "o1", filledMicro: 4n * M }, 0);
    // Its fills read after the listing: t1 + t2 from before it (the 4), t3 (2) made since.
    s.seedFills(
      "o1",
      [
        { tradeId: "t1", sizeMicro: 3n * M },
        { tradeId: "t2", sizeMicro: 1n * M },
        { tradeId: "t3", sizeMicro: 2n * M },
      ],
      3,
    );
    s.reconcile({ clientOrderId: "a", state: "open", remoteFilledMicro: 6n * M, reason: "t" }, 5);
    expect(s.get("a")?.filledMicro).toBe(6n * M);
    expect(s.unapplied(TOKEN)).toEqual({ buy: 2n * M, sell: 0n }); // t3: inventory has not had it
    s.recordFill(fill({ tradeId: "t3", orderId: "o1", sizeMicro: 2n * M })); // the stream's copy
    expect(s.unapplied(TOKEN)).toBeUndefined();
    // The order completes with a fill the stream brings: nothing is left over.
    s.reconcile({ clientOrderId: "a", state: "open", remoteFilledMicro: 10n * M, reason: "t" }, 6);
    expect(s.unapplied(TOKEN)).toEqual({ buy: 4n * M, sell: 0n });
    s.recordFill(fill({ tradeId: "t4", orderId: "o1", sizeMicro: 4n * M }));
    expect(s.get("a")?.state).toBe("filled");
    expect(s.unapplied(TOKEN)).toBeUndefined();
  });

  it("a pruned order takes its figure with it", () => {
    const s = new OrderStore();
    answered(s, "b", "o1", "FILLED", 10n * M);
    expect(s.unapplied(TOKEN)).toBeDefined();
    expect(s.prune(3)).toBe(1);
    expect(s.unapplied(TOKEN)).toBeUndefined();
  });
});
