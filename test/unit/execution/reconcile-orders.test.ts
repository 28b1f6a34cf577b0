import { describe, expect, it } from "vitest";
import { clientOrderId } from "../../../src/core/ids.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { NOT_FOUND, resolveGhost } from "../../../src/execution/reconcile-ghosts.js";
import { reconcileOpenOrders } from "../../../src/execution/reconcile-open-orders.js";
import { adoptOrphans, orphanCancels } from "../../../src/execution/reconcile-orphans.js";
import { MARKET, remote, TOKEN, tracked } from "./reconcile-support.js";

describe("reconcileOpenOrders", () => {
  it("sorts remote open orders into updates and orphans, local ones into ghosts and unresolved", () => {
    const open = tracked({ clientOrderId: "open", orderId: "o1" });
    const gone = tracked({ clientOrderId: "gone", orderId: "o2" });
    const unknownFound = tracked({ clientOrderId: "u1", state: "unknown" });
    const unknownLost = tracked({ clientOrderId: "u2", state: "unknown" });
    const placing = tracked({ clientOrderId: "p", state: "placing" });
    const done = tracked({ clientOrderId: "done", orderId: "o9", state: "cancelled" });
    const d = reconcileOpenOrders(
      [open, gone, unknownFound, unknownLost, placing, done],
      [
        remote({ id: "o1", filledQty: "2" }),
        remote({ id: "o3", clientOrderId: "u1", filledQty: "1.5" }),
        remote({ id: "o4" }), // not ours
        remote({ id: "o9", clientOrderId: "done" }), // ours, already over locally: cancel it
      ],
      1_000,
    );
    expect(d.updates).toEqual([
      {
        clientOrderId: "open",
        orderId: "o1",
        state: "open",
        remoteFilledMicro: 2_000_000n,
        reason: "open_on_exchange",
      },
      {
        clientOrderId: "u1",
        orderId: "o3",
        state: "open",
        remoteFilledMicro: 1_500_000n,
        reason: "found_open",
      },
    ]);
    expect(d.orphans.map((o) => o.id)).toEqual(["o4", "o9"]);
    expect(d.ghosts).toEqual([gone]);
    expect(d.unresolved).toEqual([unknownLost]);
  });

  it("reports nothing for an order already in step", () => {
    const o = tracked({
      clientOrderId: "c",
      orderId: "o1",
      remoteFilledMicro: 1_000_000n,
      filledMicro: 1_000_000n,
    });
    expect(reconcileOpenOrders([o], [remote({ id: "o1", filledQty: "1" })], 0).updates).toEqual([]);
  });

  it("a cancel in flight stays cancelling; a failed cancel still open goes back to open", () => {
    const inFlight = tracked({ clientOrderId: "a", orderId: "oa", state: "cancelling", updatedAtMs: 990 });
    const failed = tracked({ clientOrderId: "b", orderId: "ob", state: "cancelling", needsReconcile: true });
    const d = reconcileOpenOrders([inFlight, failed], [remote({ id: "oa" }), remote({ id: "ob" })], 1_000);
    // nothing to say about "a" (still open, cancel on its way); "b" must be cancelled again
    expect(d.updates.map((u) => [u.clientOrderId, u.state])).toEqual([["b", "open"]]);
    // absent from the list: the in-flight cancel is left to its answer within the grace period
    const absent = reconcileOpenOrders([inFlight, failed], [], 1_000);
    expect(absent.ghosts).toEqual([failed]);
    expect(reconcileOpenOrders([inFlight], [], 10_000).ghosts).toEqual([inFlight]);
  });

  it("a filled local order still listed (the list lags) and a placement awaiting its answer are left alone", () => {
    const filled = tracked({ clientOrderId: "f", orderId: "of", state: "filled" });
    const placing = tracked({ clientOrderId: "p", state: "placing" });
    const d = reconcileOpenOrders(
      [filled, placing],
      [remote({ id: "of" }), remote({ id: "op", clientOrderId: "p" })],
      0,
    );
    expect(d).toEqual({ updates: [], orphans: [], ghosts: [], unresolved: [] });
  });
});

describe("resolveGhost", () => {
  const ghost = tracked({ clientOrderId: "g", orderId: "o1" });

  it("takes the exchange's terminal state and filled quantity", () => {
    for (const [status, state] of [
      ["FILLED", "filled"],
      ["CANCELLED", "cancelled"],
      ["EXPIRED", "expired"],
      ["SETTLEMENT_FAILED", "cancelled"],
    ] as const) {
      expect(resolveGhost(ghost, remote({ id: "o1", status, filledQty: "4" }), 0)).toEqual({
        clientOrderId: "g",
        orderId: "o1",
        state,
        remoteFilledMicro: 4_000_000n,
        reason: `exchange_${status.toLowerCase()}`,
      });
    }
  });

  it("an orderId the exchange does not know is gone; another order's record is ignored", () => {
    expect(resolveGhost(ghost, NOT_FOUND, 0)).toMatchObject({
      state: "cancelled",
      reason: "order_not_found",
    });
    expect(resolveGhost(ghost, remote({ id: "other" }), 0)).toBeUndefined();
  });

  it("an unknown placement: found by clientOrderId → its state; not found → wait, then rejected after grace", () => {
    const u = tracked({ clientOrderId: "u", state: "unknown", sentAtMs: 1_000 });
    expect(resolveGhost(u, remote({ id: "o7", clientOrderId: "u", status: "OPEN" }), 2_000)).toMatchObject({
      orderId: "o7",
      state: "open",
    });
    expect(resolveGhost(u, remote({ id: "o7", clientOrderId: "u", status: "FILLED" }), 2_000)?.state).toBe(
      "filled",
    );
    expect(resolveGhost(u, remote({ id: "o7", clientOrderId: "zz" }), 2_000)).toBeUndefined();
    expect(resolveGhost(u, NOT_FOUND, 30_999)).toBeUndefined();
    expect(resolveGhost(u, NOT_FOUND, 31_000)).toMatchObject({ state: "rejected", reason: "never_placed" });
    expect(resolveGhost(u, NOT_FOUND, 2_000, { graceMs: 500 })?.state).toBe("rejected");
  });

  it("keeps a cancel in flight while the exchange still says open; never moves a terminal order", () => {
    const c = tracked({ clientOrderId: "c", orderId: "oc", state: "cancelling" });
    expect(resolveGhost(c, remote({ id: "oc" }), 0)?.state).toBe("cancelling");
    expect(resolveGhost({ ...c, needsReconcile: true }, remote({ id: "oc" }), 0)?.state).toBe("open");
    expect(
      resolveGhost({ ...c, state: "filled" }, remote({ id: "oc", status: "CANCELLED" }), 0),
    ).toBeUndefined();
  });
});

describe("orphans", () => {
  const tokenOf = () => TOKEN;

  it("cancel intents carry the exchange ids", () => {
    expect(orphanCancels([remote({ id: "o1" }), remote({ id: "o2", clientOrderId: "x" })], tokenOf)).toEqual([
      {
        kind: "cancel",
        tokenId: TOKEN,
        marketId: MARKET,
        clientOrderId: "orphan:o1",
        orderId: "o1",
        reason: "orphan",
      },
      {
        kind: "cancel",
        tokenId: TOKEN,
        marketId: MARKET,
        clientOrderId: "x",
        orderId: "o2",
        reason: "orphan",
      },
    ]);
  });

  it("adoption keeps mm's encoded level, gives others the lowest free level, refuses the unmappable", () => {
    const store = new OrderStore();
    const ours = clientOrderId({ session: "old", tokenId: TOKEN, side: "sell", level: 2, seq: 9 });
    const res = adoptOrphans(
      store,
      [
        remote({ id: "o1", side: "sell", clientOrderId: ours, price: "0.55", quantity: "5", filledQty: "1" }),
        remote({ id: "o2", side: "buy" }),
        remote({ id: "o3", side: "buy", clientOrderId: "foreign" }),
        remote({ id: "o4", marketId: "elsewhere" }),
      ],
      (o) => (o.marketId === MARKET ? TOKEN : undefined),
      7,
    );
    expect(res.adopted.map((o) => [o.orderId, o.side, o.level, o.state])).toEqual([
      ["o1", "sell", 2, "open"],
      ["o2", "buy", 0, "open"],
      ["o3", "buy", 1, "open"],
    ]);
    expect(store.byOrderId("o1")).toMatchObject({
      priceMicro: 550_000,
      sizeMicro: 5_000_000n,
      filledMicro: 1_000_000n,
    });
    expect(res.rejected.map((o) => o.id)).toEqual(["o4"]);
  });
});
