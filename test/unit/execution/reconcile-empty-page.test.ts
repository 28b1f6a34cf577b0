import { describe, expect, it } from "vitest";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import type { ReconcileState } from "../../../src/execution/reconcile-fills.js";
import { type ReconcileSource, runReconcile } from "../../../src/execution/reconcile-run.js";
import { remote, TOKEN, trade } from "./reconcile-support.js";

/*
 * The engine's trade source filters each page (sessionTrades keeps only this session's trades and
 * the older ones it looks for), so a page of 200 older trades nothing wants comes back empty with a
 * cursor. The paging went on only for non-empty pages: a trade behind such a page (a restored fill's
 * fee, a fill made while mm was down) was never seen. Found by review.
 */
describe("runReconcile: paging through a page the source filtered empty", () => {
  it("follows the cursor past an empty page to the trades behind it", async () => {
    const stranger = remote({ id: "o9", clientOrderId: "elsewhere", status: "FILLED" });
    const pages: Record<string, { trades: TradeRecord[]; nextCursor: string | null }> = {
      first: { trades: [], nextCursor: "c2" },
      c2: {
        trades: [trade({ id: "t1", orderId: "o9", createdAt: "1970-01-01T00:00:05.000Z" })],
        nextCursor: null,
      },
    };
    const source: ReconcileSource = {
      openOrders: async () => [],
      order: async (id: string): Promise<Order> => {
        if (id === "o9") return stranger;
        throw new Error(`no order ${id}`);
      },
      ordersByClientId: async () => ({ orders: [], complete: true }),
      trades: async (opts) => pages[opts.cursor ?? "first"] ?? { trades: [], nextCursor: null },
    };
    const state: ReconcileState = { orders: new OrderStore(), inventory: new Inventory() };
    const report = await runReconcile(source, state, 10_000, { tokenOf: () => TOKEN, tradesSinceMs: 1_000 });
    expect(report.backfill.applied.map((f) => f.tradeId)).toEqual(["t1"]);
  });
});
