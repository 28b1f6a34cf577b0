import { describe, expect, it } from "vitest";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { applyFill, fillFromWire, type ReconcileState } from "../../../src/execution/reconcile-fills.js";
import { applyPositionCorrections, checkPositions } from "../../../src/execution/reconcile-positions.js";
import { backfillTrades, feeOfTrade } from "../../../src/execution/reconcile-trades.js";
import { fill, MARKET, TOKEN, trade } from "./reconcile-support.js";

function state(): ReconcileState {
  const orders = new OrderStore();
  orders.track(
    {
      clientOrderId: "c1",
      tokenId: TOKEN,
      marketId: MARKET,
      side: "buy",
      level: 0,
      priceMicro: 500_000,
      sizeMicro: 2_000_000n,
    },
    0,
  );
  orders.apply("c1", { kind: "accepted", orderId: "o1", status: "OPEN", filledMicro: 0n }, 0);
  return { orders, inventory: new Inventory() };
}

describe("applyFill", () => {
  it("moves inventory and the order at once; a duplicate changes nothing", () => {
    const s = state();
    const f = fill({ tradeId: "t1", orderId: "o1" });
    expect(applyFill(s, f)).toMatchObject({
      applied: true,
      order: { clientOrderId: "c1", filledMicro: 1_000_000n },
    });
    expect(applyFill(s, f)).toMatchObject({ applied: false, order: { filledMicro: 1_000_000n } });
    expect(s.inventory.account(TOKEN).sizeMicro).toBe(1_000_000n);
    applyFill(s, fill({ tradeId: "t2", orderId: "o1" }));
    expect(s.orders.get("c1")?.state).toBe("filled");
  });

  it("a fill of an untracked order still moves inventory", () => {
    const s = state();
    expect(applyFill(s, fill({ tradeId: "t9", orderId: "elsewhere", side: "sell" }))).toEqual({
      applied: true,
      order: undefined,
    });
    expect(s.inventory.account(TOKEN).sizeMicro).toBe(-1_000_000n);
  });

  it("fillFromWire converts the user_fill decimals exactly", () => {
    expect(
      fillFromWire({
        tradeId: "t",
        orderId: "o",
        clientOrderId: "c",
        tokenId: TOKEN,
        side: "sell",
        price: "0.53",
        quantity: "12.000001",
        tsMs: 7,
      }),
    ).toEqual({
      tradeId: "t",
      orderId: "o",
      clientOrderId: "c",
      tokenId: TOKEN,
      side: "sell",
      priceMicro: 530_000,
      sizeMicro: 12_000_001n,
      tsMs: 7,
    });
    // A sub-millisecond tsMs is floored: the journal's time columns are INTEGER, and the REST copy
    // of the same trade (Date.parse) is whole.
    const fractional = { tradeId: "t", orderId: "o", tokenId: TOKEN, side: "buy" as const };
    expect(fillFromWire({ ...fractional, price: "0.5", quantity: "1", tsMs: 7.999 }).tsMs).toBe(7);
    expect(() =>
      fillFromWire({
        tradeId: "t",
        orderId: "o",
        tokenId: TOKEN,
        side: "buy",
        price: "0.5",
        quantity: "1.0000001",
        tsMs: 7,
      }),
    ).toThrow();
  });
});

describe("backfillTrades", () => {
  it("maps trades to tokens through the order, dedups against WebSocket fills, sets fees", () => {
    const s = state();
    applyFill(s, fill({ tradeId: "t1", orderId: "o1", tsMs: 1_000 }));
    const rep = backfillTrades(s, [
      trade({ id: "t1", orderId: "o1", fee: "0.01" }), // already seen; its fee is news
      trade({ id: "t2", orderId: "o1", createdAt: new Date(2_000).toISOString() }), // missed
      trade({ id: "t3", orderId: "stranger" }),
      trade({ id: "t4", orderId: "o1", price: "not-a-number" }),
    ]);
    expect(rep.applied.map((f) => [f.tradeId, f.tokenId, f.clientOrderId, f.tsMs])).toEqual([
      ["t2", TOKEN, "c1", 2_000],
    ]);
    expect(rep.duplicates).toBe(1);
    expect(rep.fees).toBe(1);
    expect(rep.unmapped.map((t) => t.id)).toEqual(["t3"]);
    expect(rep.invalid.map((t) => t.id)).toEqual(["t4"]);
    expect(s.orders.get("c1")?.state).toBe("filled");
    expect(s.inventory.account(TOKEN)).toMatchObject({ sizeMicro: 1_990_000n, feeSharesMicro: 10_000n });
    const again = backfillTrades(s, [trade({ id: "t3", orderId: "stranger" })], {
      tokenOfOrder: () => "2002",
    });
    expect(again.applied).toHaveLength(1);
    expect(backfillTrades(s, [trade({ id: "t2", orderId: "o1" })])).toMatchObject({
      applied: [],
      duplicates: 1,
      fees: 0,
    });
  });

  it("fee asset: the record's feeAsset when present, else shares for a buy and USDC for a sell", () => {
    expect(feeOfTrade(trade({ id: "a", orderId: "o", side: "buy", fee: "0.5" }))).toEqual({
      asset: "shares",
      amountMicro: 500_000n,
    });
    expect(feeOfTrade(trade({ id: "a", orderId: "o", side: "sell", fee: "0.5" }))).toEqual({
      asset: "usdc",
      amountMicro: 500_000n,
    });
    const declared = { ...trade({ id: "a", orderId: "o", side: "buy", fee: "0.2" }), feeAsset: "usdc" };
    expect(feeOfTrade(declared)).toEqual({ asset: "usdc", amountMicro: 200_000n });
    expect(feeOfTrade(trade({ id: "a", orderId: "o" }))).toBeUndefined();
    expect(feeOfTrade(trade({ id: "a", orderId: "o", fee: "0.0000001" }))).toBe("invalid");
  });
});

/** No settlement window: the age rule has a test of its own (reconcile-positions-age.test.ts). */
const NOW = { nowMs: 0, settleMs: 0 };

describe("checkPositions", () => {
  it("reports every drift, corrects only one seen identically twice", () => {
    const local = new Map([
      ["A", 10_000_000n],
      ["B", 5_000_000n],
      ["C", 1_000_000n],
    ]);
    const remote = [
      { tokenId: "A", quantity: "10" },
      { tokenId: "B", quantity: "4" },
      { tokenId: "D", quantity: "2" },
      { tokenId: "E", quantity: "x" },
    ];
    const first = checkPositions(local, remote, [], NOW);
    expect(first.drifts.map((d) => [d.tokenId, d.driftMicro])).toEqual([
      ["B", -1_000_000n],
      ["C", -1_000_000n],
      ["D", 2_000_000n],
    ]);
    expect(first.corrections).toEqual([]);
    expect(first.invalid).toEqual([{ tokenId: "E", quantity: "x" }]);
    const moved = [...remote.slice(0, 1), { tokenId: "B", quantity: "4.5" }, ...remote.slice(2)];
    const second = checkPositions(local, moved, first.drifts, NOW);
    expect(second.corrections.map((d) => d.tokenId)).toEqual(["C", "D"]);
    expect(
      checkPositions(local, remote, [], { ...NOW, tokens: new Set(["A", "B"]) }).drifts.map((d) => d.tokenId),
    ).toEqual(["B"]);
  });

  it("a correction brings inventory to the exchange's figure", () => {
    const inv = new Inventory();
    inv.applyFill(fill({ tradeId: "t", orderId: "o", sizeMicro: 5_000_000n }));
    const c = checkPositions(inv.sizes(), [{ tokenId: TOKEN, quantity: "4" }], [], NOW);
    applyPositionCorrections(
      inv,
      checkPositions(inv.sizes(), [{ tokenId: TOKEN, quantity: "4" }], c.drifts, NOW).corrections,
      9_000,
    );
    expect(inv.account(TOKEN).sizeMicro).toBe(4_000_000n);
    expect(checkPositions(inv.sizes(), [{ tokenId: TOKEN, quantity: "4" }], [], NOW).drifts).toEqual([]);
  });
});
