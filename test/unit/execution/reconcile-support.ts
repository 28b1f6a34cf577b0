import type { Fill } from "../../../src/core/trading.js";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import type { TrackedOrder } from "../../../src/execution/order-state.js";
import type { NewOrder } from "../../../src/execution/order-store.js";

/** Builders for hand-built reconcile and order-manager cases. */

export const TOKEN = "1001";
export const MARKET = "m-1";

/** A new order to track: a level-0 bid of 10 shares at 0.50 on TOKEN (override any field). */
export function order(cid: string, p: Partial<NewOrder> = {}): NewOrder {
  return {
    clientOrderId: cid,
    tokenId: TOKEN,
    marketId: MARKET,
    side: "buy",
    level: 0,
    priceMicro: 500_000,
    sizeMicro: 10_000_000n,
    ...p,
  };
}

export function tracked(p: Partial<TrackedOrder> & { clientOrderId: string }): TrackedOrder {
  return {
    orderId: undefined,
    ...order(p.clientOrderId),
    filledMicro: 0n,
    state: "open",
    updatedAtMs: 0,
    queued: false,
    sentAtMs: 0,
    createdAtMs: 0,
    fillSumMicro: 0n,
    remoteFilledMicro: 0n,
    needsReconcile: false,
    lastCode: undefined,
    cancelDoubted: false,
    cancelFirst: false,
    adopted: false,
    ...p,
  };
}

export function remote(p: Partial<Order> & { id: string }): Order {
  return {
    userWallet: "0x0000000000000000000000000000000000000001",
    vault: "0x0000000000000000000000000000000000000002",
    marketId: MARKET,
    side: "buy",
    outcome: "YES",
    price: "0.5",
    quantity: "10",
    filledQty: "0",
    remainingQty: "10",
    expiry: 0,
    type: "limit",
    timeInForce: "gtc",
    status: "OPEN",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...p,
  };
}

export function fill(p: Partial<Fill> & { tradeId: string; orderId: string }): Fill {
  return {
    clientOrderId: undefined,
    tokenId: TOKEN,
    side: "buy",
    priceMicro: 500_000,
    sizeMicro: 1_000_000n,
    tsMs: 1_000,
    ...p,
  };
}

export function trade(p: Partial<TradeRecord> & { id: string; orderId: string }): TradeRecord {
  return {
    marketId: MARKET,
    vaultAddress: "0x0000000000000000000000000000000000000002",
    fee: null,
    side: "buy",
    price: "0.5",
    quantity: "1",
    createdAt: new Date(1_000).toISOString(),
    ...p,
  };
}
