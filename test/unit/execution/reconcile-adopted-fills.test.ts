import { describe, expect, it } from "vitest";
import type { OrderFill } from "../../../src/exchange/assumptions.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { seedAdoptedFills } from "../../../src/execution/reconcile-adopted-fills.js";
import { applyFill } from "../../../src/execution/reconcile-fills.js";
import { type ReconcileSource, runReconcile } from "../../../src/execution/reconcile-run.js";
import { fill, order, remote, TOKEN } from "./reconcile-support.js";

const row = (id: string, quantity: string, orderId?: string): OrderFill => ({
  id,
  price: "0.5",
  quantity,
  ...(orderId === undefined ? {} : { orderId }),
});

const notFound = () =>
  new ExchangeError({ code: "order_not_found", message: "nf", outcome: "rejected", endpoint: "GET" });

/** An order of 10 adopted with 4 filled (its filledQty when listed): t1 (3) and t2 (1) before the start. */
function adopted(): { orders: OrderStore; inventory: Inventory } {
  const orders = new OrderStore();
  orders.adopt({ ...order("a1"), orderId: "o1", filledMicro: 4_000_000n }, 100);
  return { orders, inventory: new Inventory() };
}

describe("an adopted order's filled quantity", () => {
  it("without its earlier fills, fills after the adoption never complete it (the defect)", () => {
    const s = adopted();
    applyFill(s, fill({ tradeId: "t3", orderId: "o1", sizeMicro: 6_000_000n, tsMs: 200 }));
    // max(4 listed, 6 seen) = 6 of 10 although all 10 filled.
    expect(s.orders.get("a1")).toMatchObject({ state: "open", filledMicro: 6_000_000n });
  });

  it("with them (by tradeId), the fill that completes it makes it filled, a repeated one counts once", () => {
    const s = adopted();
    s.orders.seedFills(
      "o1",
      [
        { tradeId: "t1", sizeMicro: 3_000_000n },
        { tradeId: "t2", sizeMicro: 1_000_000n },
      ],
      150,
    );
    expect(s.orders.get("a1")).toMatchObject({ state: "open", filledMicro: 4_000_000n });
    applyFill(s, fill({ tradeId: "t2", orderId: "o1", sizeMicro: 1_000_000n, tsMs: 90 })); // a replay
    expect(s.orders.get("a1")).toMatchObject({ state: "open", filledMicro: 4_000_000n });
    applyFill(s, fill({ tradeId: "t3", orderId: "o1", sizeMicro: 6_000_000n, tsMs: 200 }));
    expect(s.orders.get("a1")).toMatchObject({ state: "filled", filledMicro: 10_000_000n, updatedAtMs: 200 });
    expect(s.orders.live(TOKEN)).toEqual([]);
  });

  it("fills seen before the adoption and read again from the exchange count once", () => {
    const store = new OrderStore();
    store.recordFill(fill({ tradeId: "t2", orderId: "o1", sizeMicro: 1_000_000n, tsMs: 90 }));
    store.adopt({ ...order("a1"), orderId: "o1", filledMicro: 4_000_000n }, 100);
    store.seedFills(
      "o1",
      [
        { tradeId: "t1", sizeMicro: 3_000_000n },
        { tradeId: "t2", sizeMicro: 1_000_000n },
      ],
      150,
    );
    expect(store.get("a1")).toMatchObject({ fillSumMicro: 4_000_000n, filledMicro: 4_000_000n });
  });
});

describe("seedAdoptedFills", () => {
  it("reads only orders adopted with a filled quantity, and skips rows naming another order", async () => {
    const store = new OrderStore();
    const a = store.adopt({ ...order("a1"), orderId: "o1", filledMicro: 4_000_000n }, 100);
    const b = store.adopt({ ...order("b1"), orderId: "o2", filledMicro: 0n }, 100);
    if (a === undefined || b === undefined) throw new Error("not adopted");
    const reads: string[] = [];
    const rep = await seedAdoptedFills(
      async (id) => {
        reads.push(id);
        return [row("t1", "3", "o1"), row("t2", "1"), row("x9", "5", "o7")];
      },
      store,
      [a, b],
      150,
    );
    expect(reads).toEqual(["o1"]);
    expect(rep).toEqual({ seeded: 1, unread: [] });
    expect(a.fillSumMicro).toBe(4_000_000n);
  });

  it("an exchange failure or an unreadable row leaves the order's lower bounds; anything else propagates", async () => {
    const store = new OrderStore();
    const a = store.adopt({ ...order("a1"), orderId: "o1", filledMicro: 4_000_000n }, 100);
    const b = store.adopt({ ...order("b1"), orderId: "o2", filledMicro: 1_000_000n }, 100);
    if (a === undefined || b === undefined) throw new Error("not adopted");
    const rep = await seedAdoptedFills(
      async (id) => {
        if (id === "o1") throw notFound();
        return [row("t1", "0.0000001")];
      },
      store,
      [a, b],
      150,
    );
    expect(rep).toEqual({ seeded: 0, unread: ["o1", "o2"] });
    expect([a.fillSumMicro, a.filledMicro, b.fillSumMicro]).toEqual([0n, 4_000_000n, 0n]);
    await expect(
      seedAdoptedFills(
        async () => {
          throw new Error("bug");
        },
        store,
        [a],
        150,
      ),
    ).rejects.toThrow("bug");
  });

  it("runReconcile reads the adopted orders' fills when the source offers them", async () => {
    const store = new OrderStore();
    const inventory = new Inventory();
    const open: Order[] = [remote({ id: "o1", filledQty: "4", remainingQty: "6" })];
    const source: ReconcileSource = {
      openOrders: async () => open,
      order: async () => {
        throw notFound();
      },
      ordersByClientId: async () => ({ orders: [], complete: true }),
      trades: async (): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> => ({
        trades: [],
        nextCursor: null,
      }),
      orderFills: async () => [row("t1", "3"), row("t2", "1")],
    };
    const rep = await runReconcile(source, { orders: store, inventory }, 1_000, {
      adopt: true,
      tokenOf: () => TOKEN,
    });
    expect(rep).toMatchObject({ adopted: 1, adoptedFillsUnread: [] });
    expect(store.byOrderId("o1")).toMatchObject({ fillSumMicro: 4_000_000n, remoteFilledMicro: 4_000_000n });
  });
});

describe("Inventory.excludeFill (a fill the positions baseline holds)", () => {
  it("is refused from any source, until a compaction past its time forgets it", () => {
    const inv = new Inventory();
    const f = fill({ tradeId: "t1", orderId: "o1", sizeMicro: 2_000_000n, tsMs: 1_000 });
    inv.excludeFill(f);
    expect(inv.applyFill(f)).toBe(false);
    expect(inv.account(TOKEN).sizeMicro).toBe(0n);
    expect(inv.applyFill(fill({ tradeId: "t2", orderId: "o1", tsMs: 1_000 }))).toBe(true);
    inv.compact(1_001);
    expect(inv.applyFill(f)).toBe(false); // stamped before the floor: a late duplicate
    expect(inv.late).toBe(1);
    expect(inv.account(TOKEN).sizeMicro).toBe(1_000_000n);
  });
});
