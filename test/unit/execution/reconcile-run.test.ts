import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import type { ReconcileState } from "../../../src/execution/reconcile-fills.js";
import {
  type ClientIdSearch,
  type ReconcileSource,
  runReconcile,
  type TimeWindow,
} from "../../../src/execution/reconcile-run.js";
import { MARKET, order, remote, TOKEN, trade } from "./reconcile-support.js";

/** A hand-written exchange: fixed records, counted calls. */
class FakeSource implements ReconcileSource {
  readonly calls: string[] = [];
  readonly windows: (TimeWindow | undefined)[] = [];
  constructor(
    private readonly open: Order[],
    private readonly known: Order[],
    private readonly tradeList: TradeRecord[],
    private readonly pageSize = 2,
  ) {}
  async openOrders(): Promise<Order[]> {
    this.calls.push("open");
    return this.open;
  }
  async order(id: string): Promise<Order> {
    this.calls.push(`order:${id}`);
    if (id === "boom") {
      throw new ExchangeError({
        code: "connection_lost",
        message: "socket hang up",
        outcome: "ambiguous",
        endpoint: "GET /api/orders/{id}",
      });
    }
    if (id === "bug") throw new TypeError("Cannot read properties of undefined (reading 'status')");
    const o = [...this.open, ...this.known].find((r) => r.id === id);
    if (o === undefined)
      throw new ExchangeError({
        code: "order_not_found",
        message: "nf",
        outcome: "rejected",
        endpoint: "GET",
      });
    return o;
  }
  async ordersByClientId(cids: readonly string[], window?: TimeWindow): Promise<ClientIdSearch> {
    this.calls.push(`history:${cids.join(",")}`);
    this.windows.push(window);
    const orders = this.known.filter((o) => o.clientOrderId !== undefined && cids.includes(o.clientOrderId));
    return { orders, complete: true };
  }
  async trades({
    cursor,
  }: {
    cursor?: string;
  }): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> {
    const start = Number(cursor ?? 0);
    this.calls.push(`trades:${start}`);
    const end = start + this.pageSize;
    return {
      trades: this.tradeList.slice(start, end),
      nextCursor: end < this.tradeList.length ? String(end) : null,
    };
  }
}

function state(): ReconcileState {
  const orders = new OrderStore();
  const add = (cid: string) => {
    orders.track(order(cid, { sizeMicro: 2_000_000n }), 0);
    orders.apply(cid, { kind: "sent" }, 0);
  };
  add("live");
  orders.apply("live", { kind: "accepted", orderId: "o1", status: "OPEN", filledMicro: 0n }, 0);
  add("gone");
  orders.apply("gone", { kind: "accepted", orderId: "o2", status: "OPEN", filledMicro: 0n }, 0);
  add("amb");
  orders.apply("amb", { kind: "ambiguous" }, 0);
  return { orders, inventory: new Inventory() };
}

/**
 * state() plus "b", a sell the exchange took as `orderId`, held open: not in the FakeSource's open
 * list, so the run looks it up (FakeSource.order: "boom" throws an ExchangeError, "bug" a TypeError).
 */
function stateWithOpen(orderId: string): ReconcileState {
  const s = state();
  s.orders.track(
    {
      clientOrderId: "b",
      tokenId: TOKEN,
      marketId: MARKET,
      side: "sell",
      level: 1,
      priceMicro: 1,
      sizeMicro: 1n,
    },
    0,
  );
  s.orders.apply("b", { kind: "accepted", orderId, status: "OPEN", filledMicro: 0n }, 0);
  return s;
}

const tokenOf = (o: Order) => (o.marketId === MARKET ? TOKEN : undefined);

describe("runReconcile", () => {
  it("open orders, then ghost lookups, then unknowns by clientOrderId, then trades", async () => {
    const s = state();
    const src = new FakeSource(
      [remote({ id: "o1" }), remote({ id: "stray" })],
      [
        remote({ id: "o2", status: "FILLED", filledQty: "2" }),
        remote({ id: "o3", clientOrderId: "amb", status: "CANCELLED", filledQty: "1" }),
      ],
      [
        trade({ id: "t3", orderId: "o3", quantity: "1", createdAt: new Date(3_000).toISOString() }),
        trade({ id: "t2", orderId: "o2", quantity: "2", createdAt: new Date(2_000).toISOString() }),
        trade({ id: "t1", orderId: "old", quantity: "1", createdAt: new Date(1_000).toISOString() }),
      ],
    );
    const rep = await runReconcile(src, s, 100_000, { tokenOf });
    expect(src.calls).toEqual(["open", "order:o2", "history:amb", "trades:0", "trades:2", "order:old"]);
    // Searched where it was sent (at 0), a minute either side: not "the newest pages".
    expect(src.windows).toEqual([{ fromMs: -60_000, toMs: 60_000 }]);
    expect(s.orders.get("gone")).toMatchObject({ state: "filled", filledMicro: 2_000_000n });
    expect(s.orders.get("amb")).toMatchObject({ state: "cancelled", orderId: "o3", filledMicro: 1_000_000n });
    expect(rep.orphans.map((o) => o.id)).toEqual(["stray"]);
    expect(rep.backfill.applied.map((f) => f.tradeId)).toEqual(["t3", "t2"]);
    expect(rep.backfill.unmapped.map((t) => t.id)).toEqual(["t1"]); // "old" is not known to the exchange either
    expect(s.inventory.account(TOKEN).sizeMicro).toBe(3_000_000n);
  });

  it("searches the order history on the exchange's clock when ours is skewed", async () => {
    const src = new FakeSource([], [], []);
    // Our clock 5 minutes behind the exchange's: the order sent at our 0 was created at its 300,000.
    await runReconcile(src, state(), 100_000, { tokenOf, clockOffsetMs: 300_000 });
    expect(src.windows).toEqual([{ fromMs: 240_000, toMs: 360_000 }]);
  });

  it("adopts orphans when asked; stops paging trades at the watermark", async () => {
    const s = state();
    const src = new FakeSource(
      [remote({ id: "o1" }), remote({ id: "o2" }), remote({ id: "stray", side: "sell", price: "0.6" })],
      [],
      [1, 2, 3, 4, 5, 6].map((k) =>
        trade({ id: `t${k}`, orderId: "o1", createdAt: new Date(10_000 - k * 1_000).toISOString() }),
      ),
    );
    const rep = await runReconcile(src, s, 1_000, { tokenOf, adopt: true, tradesSinceMs: 6_500 });
    expect(rep.adopted).toBe(1);
    expect(rep.orphans).toEqual([]);
    expect(s.orders.byOrderId("stray")).toMatchObject({
      state: "open",
      side: "sell",
      level: 0,
      priceMicro: 600_000,
    });
    expect(src.calls.filter((c) => c.startsWith("trades"))).toEqual(["trades:0", "trades:2"]);
    expect(rep.pending).toBe(1); // "amb": not found yet, still within its grace period
    expect(s.orders.get("amb")?.state).toBe("unknown");
  });

  it("a lookup failing for another reason than order_not_found fails alone: the order stays in doubt (s20)", async () => {
    const s = stateWithOpen("boom");
    const src = new FakeSource([], [], []);
    const pending: [number, number, readonly string[]][] = [];
    const report = await runReconcile(src, s, 100_000, {
      tokenOf,
      onPending: (n, unread, failing) => pending.push([n, unread, failing]),
    });
    // Was: the whole run rejected ("socket hang up"), its follow-up at the failure backoff's pace.
    expect(report.inDoubt).toBe(1);
    expect(report.unread).toBe(1);
    expect(report.lookupFailures).toMatchObject([{ clientOrderId: "b", orderId: "boom" }]);
    expect(pending).toEqual([[1, 1, ["b"]]]);
    expect(s.orders.get("b")).toMatchObject({ state: "open" });
    // the other ghosts were resolved (404: gone), and the run went on to the trades
    expect(s.orders.get("live")).toMatchObject({ state: "cancelled" });
    expect(src.calls).toContain("trades:0");
  });

  it("a lookup that throws anything but an ExchangeError (a bug) still fails the run, not an order in doubt", async () => {
    const s = stateWithOpen("bug");
    const src = new FakeSource([], [], []);
    const pending: number[] = [];
    await expect(
      runReconcile(src, s, 100_000, { tokenOf, onPending: (n) => pending.push(n) }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(pending).toEqual([]);
    expect(src.calls).not.toContain("trades:0");
  });
});
