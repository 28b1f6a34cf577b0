import { describe, expect, it } from "vitest";
import type { OrderView } from "../../../src/venue/types.js";
import { A, B, harness, M1, M2, order, T0, u, YES } from "./fixture.js";

const ids = (xs: readonly OrderView[]) => xs.map((o) => o.id);

describe("order history", () => {
  it("pages newest first over (createdAt, id), stable when orders are inserted between pages", () => {
    const { venue, clock } = harness();
    const placed: string[] = [];
    for (let i = 0; i < 7; i++) {
      placed.push(venue.place(order(A, "buy", "0.10", "1")).orderId);
      if (i % 2 === 1) clock.advanceBy(1); // several orders share a millisecond: id breaks the tie
    }
    const newestFirst = [...placed].reverse();
    const p1 = venue.orderHistory(A, { limit: 3 });
    expect(ids(p1.items)).toEqual(newestFirst.slice(0, 3));
    // New orders arrive between page reads; later pages must neither repeat nor skip.
    venue.place(order(A, "buy", "0.10", "1"));
    clock.advanceBy(5);
    venue.place(order(A, "buy", "0.10", "1"));
    const p2 = venue.orderHistory(A, { limit: 3, ...(p1.next ? { after: p1.next } : {}) });
    expect(ids(p2.items)).toEqual(newestFirst.slice(3, 6));
    const p3 = venue.orderHistory(A, { limit: 3, ...(p2.next ? { after: p2.next } : {}) });
    expect(ids(p3.items)).toEqual(newestFirst.slice(6));
    expect(p3.next).toBeUndefined();
  });

  it("next is undefined exactly when no further match exists", () => {
    const { venue } = harness();
    for (let i = 0; i < 4; i++) venue.place(order(A, "buy", "0.10", "1"));
    const page = venue.orderHistory(A, { limit: 4 });
    expect(page.items).toHaveLength(4);
    expect(page.next).toBeUndefined();
    expect(venue.orderHistory(A, { limit: 3 }).next).toBeDefined();
  });

  it("filters by market, status (incl. PARTIAL), from (inclusive) and to (exclusive)", () => {
    const { venue, clock } = harness();
    const open = venue.place(order(A, "buy", "0.40", "10")).orderId;
    venue.place(order(B, "sell", "0.40", "4")); // partially fills `open`
    clock.advanceBy(10);
    const cancelled = venue.place(order(A, "buy", "0.30", "1")).orderId;
    venue.cancel(A, cancelled);
    clock.advanceBy(10);
    const other = venue.place(order(A, "buy", "0.30", "1", { marketId: M2 })).orderId;
    venue.place(order(B, "buy", "0.70", "2"));
    const filled = venue.place(order(A, "sell", "0.70", "2")).orderId;

    const q = (extra: Parameters<typeof venue.orderHistory>[1]) => ids(venue.orderHistory(A, extra).items);
    expect(q({ limit: 10, marketId: M2 })).toEqual([other]);
    expect(q({ limit: 10, status: "OPEN" }).sort()).toEqual([open, other].sort());
    expect(q({ limit: 10, status: "PARTIAL" })).toEqual([open]);
    expect(q({ limit: 10, status: "CANCELLED" })).toEqual([cancelled]);
    expect(q({ limit: 10, status: "FILLED" })).toEqual([filled]);
    expect(q({ limit: 10, status: "REJECTED" })).toEqual([]);
    expect(q({ limit: 10, from: T0 + 10 })).toEqual([filled, other, cancelled]);
    expect(q({ limit: 10, from: T0 + 10, to: T0 + 20 })).toEqual([cancelled]);
    expect(q({ limit: 10, to: T0 + 10 })).toEqual([open]);
    expect(venue.orderHistory(B, { limit: 10 }).items).toHaveLength(2);
  });
});

describe("order reads", () => {
  it("order by id is scoped to its wallet; open orders are oldest first, filterable by market", () => {
    const { venue } = harness();
    const a1 = venue.place(order(A, "buy", "0.40", "1")).orderId;
    const a2 = venue.place(order(A, "buy", "0.40", "1", { marketId: M2 })).orderId;
    expect(venue.order(A, a1)?.id).toBe(a1);
    expect(venue.order(B, a1)).toBeUndefined();
    expect(venue.order(A, "missing")).toBeUndefined();
    expect(ids(venue.openOrders(A))).toEqual([a1, a2]);
    expect(ids(venue.openOrders(A, M1))).toEqual([a1]);
    expect(venue.openOrders(B)).toEqual([]);
  });

  it("returned records are copies: mutating them changes nothing", () => {
    const { venue } = harness();
    const id = venue.place(order(A, "buy", "0.40", "1")).orderId;
    const view = venue.order(A, id) as unknown as { status: string; tradeIds: string[] };
    view.status = "FILLED";
    view.tradeIds.push("x");
    expect(venue.order(A, id)).toMatchObject({ status: "OPEN", tradeIds: [] });
  });

  it("fills of an order, from the owning wallet only", () => {
    const { venue } = harness();
    const maker = venue.place(order(A, "sell", "0.60", "5", { clientOrderId: "mk" })).orderId;
    const t1 = venue.place(order(B, "buy", "0.60", "2")).trades[0]?.id;
    const t2 = venue.place(order(B, "buy", "0.60", "3")).trades[0]?.id;
    const fills = venue.orderFills(A, maker);
    expect(fills?.map((f) => [f.tradeId, f.role, f.side, f.quantity, f.clientOrderId])).toEqual([
      [t1, "maker", "sell", u("2"), "mk"],
      [t2, "maker", "sell", u("3"), "mk"],
    ]);
    expect(venue.orderFills(B, maker)).toBeUndefined();
  });
});

describe("wallet trade rows (/api/me/trades, /api/me/fees)", () => {
  it("one row per (tradeId, role), side and fee from the wallet's view, newest first, paginated", () => {
    const { venue, clock } = harness();
    venue.place(order(A, "sell", "0.60", "5"));
    clock.advanceBy(1);
    const buy = venue.place(order(B, "buy", "0.60", "2"));
    clock.advanceBy(1);
    venue.place(order(B, "sell", "0.20", "1"));
    const sell = venue.place(order(A, "buy", "0.25", "1")); // A takes B's ask at 0.20
    const rowsA = venue.walletTrades(A, { limit: 10 }).items;
    expect(rowsA.map((r) => [r.tradeId, r.role, r.side, r.price])).toEqual([
      [sell.trades[0]?.id, "taker", "buy", u("0.20")],
      [buy.trades[0]?.id, "maker", "sell", u("0.60")],
    ]);
    expect(venue.walletTrades(A, { limit: 10, role: "maker" }).items).toHaveLength(1);
    expect(venue.walletTrades(A, { limit: 10, marketId: M2 }).items).toEqual([]);
    const first = venue.walletTrades(B, { limit: 1 });
    expect(first.items[0]?.role).toBe("maker");
    const second = venue.walletTrades(B, { limit: 1, ...(first.next ? { after: first.next } : {}) });
    expect(second.items.map((r) => [r.role, r.side])).toEqual([["taker", "buy"]]);
    expect(second.next).toBeUndefined();
    expect(venue.recentTrades(YES, 10).map((t) => t.id)).toEqual([sell.trades[0]?.id, buy.trades[0]?.id]);
  });
});
