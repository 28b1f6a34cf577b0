import { describe, expect, it } from "vitest";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import type { ReconcileState } from "../../../src/execution/reconcile-fills.js";
import { type ReconcileSource, runReconcile } from "../../../src/execution/reconcile-run.js";
import type { RestoredFills } from "../../../src/execution/restored-fees.js";
import { MARKET, remote, TOKEN, trade } from "./reconcile-support.js";

/*
 * A reconcile reads each trade record's createdAt for the paging cut-off, the restored-fill check
 * (before and in the backfill) and the fill's timestamp: it is parsed once per record, when its
 * page arrives.
 */

/** A trade record counting the reads of its createdAt. */
function counted(id: string, orderId: string, atMs: number): { record: TradeRecord; reads: () => number } {
  let reads = 0;
  const record = trade({ id, orderId });
  const iso = new Date(atMs).toISOString();
  Object.defineProperty(record, "createdAt", {
    enumerable: true,
    get() {
      reads++;
      return iso;
    },
  });
  return { record, reads: () => reads };
}

/** One page of trades; our order o1 is open; GET /api/orders/{id} knows a stranger's, o9. */
function source(trades: TradeRecord[]): ReconcileSource {
  const stranger = remote({ id: "o9", clientOrderId: "elsewhere", status: "FILLED" });
  const ours = remote({ id: "o1", clientOrderId: "c1", quantity: "5", remainingQty: "5" });
  return {
    openOrders: async () => [ours],
    order: async (id: string): Promise<Order> => {
      if (id === "o9") return stranger;
      throw new Error(`no order ${id}`);
    },
    ordersByClientId: async () => ({ orders: [], complete: true }),
    trades: async () => ({ trades, nextCursor: null }),
  };
}

describe("runReconcile: a trade record's createdAt is parsed once", () => {
  it("reads it once per record, through paging, the restored check, the lookup and the fill", async () => {
    const orders = new OrderStore();
    orders.track(
      {
        clientOrderId: "c1",
        tokenId: TOKEN,
        marketId: MARKET,
        side: "buy",
        level: 0,
        priceMicro: 500_000,
        sizeMicro: 5_000_000n,
      },
      0,
    );
    orders.apply("c1", { kind: "sent" }, 0);
    orders.apply("c1", { kind: "accepted", orderId: "o1", status: "OPEN", filledMicro: 0n }, 0);
    const asked: number[] = [];
    const restored: RestoredFills = {
      holds: (_tradeId, _orderId, tsMs) => {
        asked.push(tsMs);
        return false;
      },
      setFee: () => false,
    };
    const state: ReconcileState = { orders, inventory: new Inventory(), restored };
    const ours = counted("t1", "o1", 5_000);
    const unmapped = counted("t2", "o9", 6_000); // of an order this session never tracked
    const report = await runReconcile(source([unmapped.record, ours.record]), state, 10_000, {
      tokenOf: () => TOKEN,
      tradesSinceMs: 1_000,
    });
    // One pass in page order, the unmapped order's token looked up before anything is applied.
    expect(report.backfill.applied.map((f) => [f.tradeId, f.tsMs])).toEqual([
      ["t2", 6_000],
      ["t1", 5_000],
    ]);
    expect(asked).toEqual([6_000, 6_000, 5_000]); // t2 checked before its lookup and in the backfill
    expect(ours.reads()).toBe(1);
    expect(unmapped.reads()).toBe(1);
  });

  it("still skips a record whose createdAt is unreadable", async () => {
    const state: ReconcileState = { orders: new OrderStore(), inventory: new Inventory() };
    const bad = trade({ id: "t3", orderId: "o9", createdAt: "yesterday" });
    const report = await runReconcile(source([bad]), state, 10_000, {
      tokenOf: () => TOKEN,
      tradesSinceMs: 1_000,
    });
    expect(report.backfill.invalid).toEqual([bad]);
    expect(report.backfill.applied).toEqual([]);
  });
});
