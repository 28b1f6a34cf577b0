import { describe, expect, it } from "vitest";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import type { ReconcileState } from "../../../src/execution/reconcile-fills.js";
import { type ReconcileSource, runReconcile } from "../../../src/execution/reconcile-run.js";
import { remote, TOKEN, trade } from "./reconcile-support.js";

/*
 * The spec shows no order for GET /api/me/trades. The reconcile's paging stopped at the first page
 * holding a trade older than tradesSinceMs, so a history served oldest first was read one page deep
 * and this run's trades behind it never backfilled. It stops there only when the paging runs newest
 * first (TradePagingOrder); otherwise it follows the cursor.
 */
type Page = { trades: TradeRecord[]; nextCursor: string | null };

function rig(pages: Record<string, Page>) {
  const read: string[] = [];
  const stranger = remote({ id: "o9", clientOrderId: "elsewhere", status: "FILLED" });
  const source: ReconcileSource = {
    openOrders: async () => [],
    order: async (id: string): Promise<Order> => {
      if (id === "o9") return stranger;
      throw new Error(`no order ${id}`);
    },
    ordersByClientId: async () => ({ orders: [], complete: true }),
    trades: async (opts) => {
      read.push(opts.cursor ?? "first");
      return pages[opts.cursor ?? "first"] ?? { trades: [], nextCursor: null };
    },
  };
  const state: ReconcileState = { orders: new OrderStore(), inventory: new Inventory() };
  const run = () => runReconcile(source, state, 10_000, { tokenOf: () => TOKEN, tradesSinceMs: 3_000 });
  return { read, run };
}

const at = (id: string, s: number) => trade({ id, orderId: "o9", createdAt: `1970-01-01T00:00:0${s}.000Z` });

describe("runReconcile: the trade paging and the order of the pages", () => {
  it("follows the cursor past a page of older trades running oldest first", async () => {
    const { read, run } = rig({
      first: { trades: [at("t0", 1), at("t1", 2)], nextCursor: "c2" },
      c2: { trades: [at("t2", 5)], nextCursor: null },
    });
    const report = await run();
    expect(read).toEqual(["first", "c2"]);
    expect(report.backfill.applied.map((f) => f.tradeId)).toContain("t2");
  });

  it("stops at a page running newest first that reaches before tradesSinceMs", async () => {
    const { read, run } = rig({
      first: { trades: [at("t2", 5), at("t1", 2)], nextCursor: "c2" },
      c2: { trades: [at("t0", 1)], nextCursor: null },
    });
    await run();
    expect(read).toEqual(["first"]);
  });

  it("tells the order across pages of one trade each: on past an oldest-first one, stopped by a newest-first one", async () => {
    const oldest = rig({
      first: { trades: [at("t0", 1)], nextCursor: "c2" },
      c2: { trades: [at("t1", 2)], nextCursor: "c3" },
      c3: { trades: [at("t2", 5)], nextCursor: null },
    });
    await oldest.run();
    expect(oldest.read).toEqual(["first", "c2", "c3"]);
    const newest = rig({
      first: { trades: [at("t2", 5)], nextCursor: "c2" },
      c2: { trades: [at("t1", 2)], nextCursor: "c3" },
      c3: { trades: [at("t0", 1)], nextCursor: null },
    });
    await newest.run();
    expect(newest.read).toEqual(["first", "c2"]);
  });
});
