import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LocalOrderState } from "../../../src/core/trading.js";
import { toWei } from "../../../src/core/wei.js";
import { ExchangeError } from "../../../src/exchange/exchange-error.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import type { Order } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import {
  applyCancelOutcome,
  applyPlaceOutcome,
  markPlacementSent,
} from "../../../src/execution/order-manager-outcomes.js";
import { localStateOfRemote } from "../../../src/execution/order-state.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { applyFill, type ReconcileState } from "../../../src/execution/reconcile-fills.js";
import { type ReconcileSource, runReconcile } from "../../../src/execution/reconcile-run.js";
import { feeOfTrade } from "../../../src/execution/reconcile-trades.js";
import {
  type Delivery,
  type History,
  historyArb,
  TOKEN_OF_MARKET,
  type TrueOrder,
} from "./reconcile-history.js";

/*
 * The reconciler's central property: whatever the WebSocket loses, repeats or reorders, one REST
 * reconcile afterwards (open orders, order lookups, history by clientOrderId, trades backfill) leaves
 * the local orders, positions and realised PnL exactly as the true history says; and a second
 * reconcile changes nothing.
 */

const err = (code: string, outcome: "rejected" | "retryable" | "ambiguous") =>
  new ExchangeError({ code, message: code, outcome, endpoint: "test" });

function deliver(state: ReconcileState, d: Delivery, now: number): void {
  const store = state.orders;
  switch (d.kind) {
    case "fill":
      applyFill(state, d.fill);
      return;
    case "outcome":
      applyPlaceOutcome(store, d.order.cid, outcomeOf(d.order), now);
      return;
    case "cancel_request":
      store.apply(d.order.cid, { kind: "cancel_requested" }, now);
      return;
    case "cancel_answer": {
      const a = d.order.cancel;
      const fail = (e: ExchangeError) => applyCancelOutcome(store, d.order.cid, { ok: false, error: e }, now);
      if (a === "ok") applyCancelOutcome(store, d.order.cid, { ok: true }, now);
      else if (a === "lost" || a === "unapplied") fail(err("exchange_transport_error", "ambiguous"));
      else if (a === "not_cancellable") fail(err("not_cancellable", "rejected"));
      else if (a === "retryable") fail(err("rate_limited", "retryable"));
      return;
    }
  }
}

function outcomeOf(o: TrueOrder): PlaceOrderOutcome {
  if (o.fate === "accepted") {
    const id = o.record?.id ?? "";
    return {
      kind: "accepted",
      result: { orderId: id, status: "OPEN", filledQty: "0", remainingQty: "1", trades: [] },
      requestId: undefined,
    };
  }
  if (o.fate === "rejected")
    return {
      kind: "rejected",
      code: "insufficient_funds",
      retryable: false,
      error: err("insufficient_funds", "rejected"),
    };
  return { kind: "ambiguous", error: err("exchange_transport_error", "ambiguous") };
}

function sourceOf(h: History): ReconcileSource & { calls: Record<string, number> } {
  const all: Order[] = [
    ...h.orders.flatMap((o) => (o.record === undefined ? [] : [o.record])),
    h.oldOrder,
    ...h.foreign,
  ];
  const newestFirst = [...h.trades].reverse().map((t) => t.record);
  const calls: Record<string, number> = { open: 0, order: 0, history: 0, trades: 0 };
  return {
    calls,
    openOrders: async () => {
      calls.open = (calls.open ?? 0) + 1;
      return all.filter((o) => o.status === "OPEN");
    },
    order: async (id) => {
      calls.order = (calls.order ?? 0) + 1;
      const o = all.find((r) => r.id === id);
      if (o === undefined) throw err("order_not_found", "rejected");
      return o;
    },
    ordersByClientId: async (cids) => {
      calls.history = (calls.history ?? 0) + 1;
      const orders = all.filter((o) => o.clientOrderId !== undefined && cids.includes(o.clientOrderId));
      return { orders, complete: true };
    },
    trades: async ({ cursor }) => {
      calls.trades = (calls.trades ?? 0) + 1;
      const start = cursor === undefined ? 0 : Number(cursor);
      const end = start + h.pageSize;
      return {
        trades: newestFirst.slice(start, end),
        nextCursor: end < newestFirst.length ? String(end) : null,
      };
    },
  };
}

function expectedState(o: TrueOrder): LocalOrderState {
  return o.record === undefined ? "rejected" : localStateOfRemote(o.record.status);
}

function truthInventory(h: History): Inventory {
  const inv = new Inventory();
  for (const t of h.trades) {
    inv.applyFill(t.fill);
    const fee = feeOfTrade(t.record);
    if (fee !== undefined && fee !== "invalid") inv.setFee(t.record.id, t.record.orderId, fee);
  }
  return inv;
}

const tokenOf = (o: Order) => TOKEN_OF_MARKET[o.marketId];
const NOW = 10_000_000;

describe("reconciler convergence (property)", () => {
  it("shuffled, duplicated and dropped fills + one REST reconcile = the true history", async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, async (h) => {
        const state: ReconcileState = { orders: new OrderStore(), inventory: new Inventory() };
        for (const o of h.orders) {
          state.orders.track(
            {
              clientOrderId: o.cid,
              tokenId: o.tokenId,
              marketId: o.record?.marketId ?? "",
              side: o.side,
              level: 0,
              priceMicro: o.priceMicro,
              sizeMicro: o.sizeMicro,
            },
            0,
          );
          markPlacementSent(state.orders, o.cid, 0);
        }
        for (const [i, d] of h.deliveries.entries()) deliver(state, d, 1 + i);

        const source = sourceOf(h);
        const report = await runReconcile(source, state, NOW, { tokenOf });

        for (const o of h.orders) {
          const local = state.orders.get(o.cid);
          expect(local?.state, `${o.cid} (${o.fate}, ${o.record?.status})`).toBe(expectedState(o));
          expect(local?.orderId).toBe(o.record?.id);
          expect(local?.filledMicro).toBe(o.record === undefined ? 0n : toWei(o.record.filledQty));
        }
        const truth = truthInventory(h);
        for (const t of ["A", "B"]) expect(state.inventory.account(t)).toEqual(truth.account(t));
        expect(state.inventory.realisedPico()).toBe(truth.realisedPico());
        const orphanIds = report.orphans.map((o) => o.id).sort();
        const expectedOrphans = [
          ...h.foreign.map((f) => f.id),
          ...(h.oldOrder.status === "OPEN" ? ["x0"] : []),
        ].sort();
        expect(orphanIds).toEqual(expectedOrphans);
        expect(report.pending).toBe(0);
        expect(report.backfill.unmapped).toEqual([]);

        const again = await runReconcile(source, state, NOW + 1, { tokenOf });
        expect(again.updates).toEqual([]);
        expect(again.backfill.applied).toEqual([]);
        for (const t of ["A", "B"]) expect(state.inventory.account(t)).toEqual(truth.account(t));
      }),
      { numRuns: 400 },
    );
  });
});
