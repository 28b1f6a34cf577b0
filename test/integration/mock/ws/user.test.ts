import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toWei } from "../../../../src/core/wei.js";
import type { MarketScenario } from "../../../../src/mock/scenario/types.js";
import { vaultOf } from "../../../../src/mock/vault.js";
import { settlementTxHash } from "../../../../src/mock/ws/chain.js";
import { weiToString } from "../../../../src/venue/wire.js";
import {
  connect,
  KEYS,
  MM_WALLET,
  type Mock,
  OTHER_WALLET,
  place,
  startMock,
  T0,
  type TestSocket,
} from "./helpers.js";

let mock: Mock;
let m: MarketScenario;
let mm: TestSocket;
let other: TestSocket;
beforeEach(async () => {
  mock = await startMock({ timing: { settlementDelayMs: 1_000 } });
  const first = mock.scenario.markets[0];
  if (first === undefined) throw new Error("scenario has no market");
  m = first;
  mm = await connect(`${mock.wsUrl}/ws/user`, { "X-Api-Key": KEYS.full });
  other = await connect(`${mock.wsUrl}/ws/user`, {
    "X-Api-Key": KEYS.multiKyc,
    "X-User-Wallet": OTHER_WALLET,
  });
});
afterEach(async () => {
  await mock.close();
});

const shares = (wallet: `0x${string}`, tokenId: string): string =>
  weiToString(mock.ctx.venue.positions(wallet).find((p) => p.tokenId === tokenId)?.balance ?? 0n);

describe("user_fills", () => {
  it("user_fill carries exactly the spec's fields, clientOrderId only when the order had one; no envelope id", async () => {
    await mm.subscribe("user_fills");
    await other.subscribe("user_fills");
    const maker = place(mock.ctx, {
      wallet: MM_WALLET,
      marketId: m.id,
      side: "sell",
      price: "0.55",
      qty: "10",
      clientOrderId: "mm-ask-1",
    });
    const taker = place(mock.ctx, {
      wallet: OTHER_WALLET,
      marketId: m.id,
      side: "buy",
      price: "0.55",
      qty: "4",
    });
    const tradeId = taker.trades[0]?.id;
    const common = {
      tradeId,
      tokenId: m.yesTokenId,
      conditionId: m.conditionId,
      outcomeIndex: 0,
      price: "0.55",
      quantity: "4",
      source: "matcher",
      tsMs: T0,
    };
    const mine = await mm.take((f) => f.type === "user_fill");
    expect(mine).toEqual({ type: "user_fill", sid: 1, channel: "user_fills", data: mine.data });
    expect("id" in mine).toBe(false);
    expect(mine.data).toEqual({
      walletAddress: MM_WALLET,
      side: "sell",
      orderId: maker.orderId,
      clientOrderId: "mm-ask-1",
      ...common,
    });
    expect(Object.keys(mine.data)).toEqual([
      "walletAddress",
      "side",
      "tradeId",
      "orderId",
      "clientOrderId",
      "tokenId",
      "conditionId",
      "outcomeIndex",
      "price",
      "quantity",
      "source",
      "tsMs",
    ]);
    const theirs = await other.take((f) => f.type === "user_fill");
    expect(theirs.data).toEqual({
      walletAddress: OTHER_WALLET,
      side: "buy",
      orderId: taker.orderId,
      ...common,
    });
    expect("clientOrderId" in theirs.data).toBe(false);
    await mm.barrier();
    expect(mm.ofType("user_fill")).toHaveLength(1); // only the wallet's own fills
  });
});

describe("user_orders", () => {
  it("order_placed and order_cancelled, with clientOrderId when supplied, only to the order's wallet", async () => {
    await mm.subscribe("user_orders");
    await other.subscribe("user_orders");
    const o = place(mock.ctx, {
      wallet: MM_WALLET,
      marketId: m.id,
      side: "buy",
      price: "0.4",
      qty: "5",
      clientOrderId: "bid-7",
    });
    const plain = place(mock.ctx, {
      wallet: MM_WALLET,
      marketId: m.id,
      side: "buy",
      price: "0.39",
      qty: "1",
    });
    mock.ctx.venue.cancel(MM_WALLET, o.orderId);
    const placed = await mm.take((f) => f.type === "order_placed");
    expect("id" in placed).toBe(false);
    expect(placed).toMatchObject({ sid: 1, channel: "user_orders" });
    expect(placed.data).toEqual({
      orderId: o.orderId,
      clientOrderId: "bid-7",
      walletAddress: MM_WALLET,
      vaultAddress: vaultOf(MM_WALLET),
      marketId: m.id,
      tokenId: m.yesTokenId,
      outcome: "YES",
      outcomeIndex: 0,
      side: "buy",
      type: "limit",
      timeInForce: "gtc",
      price: "0.4",
      quantity: "5",
      filledQty: "0",
      remainingQty: "5",
      status: "OPEN",
      expiry: 0,
      tsMs: T0,
    });
    const second = await mm.take((f) => f.type === "order_placed");
    expect(second.data.orderId).toBe(plain.orderId);
    expect("clientOrderId" in second.data).toBe(false);
    const cancelled = await mm.take((f) => f.type === "order_cancelled");
    expect(cancelled.data).toMatchObject({
      orderId: o.orderId,
      clientOrderId: "bid-7",
      status: "CANCELLED",
      reason: "user",
      remainingQty: "5",
    });
    await other.barrier();
    expect(other.frames.filter((f) => f.channel === "user_orders")).toEqual([]);
  });

  it("an IOC remainder and an expiry are pushed as order_cancelled with their reason", async () => {
    await mm.subscribe("user_orders");
    place(mock.ctx, { wallet: OTHER_WALLET, marketId: m.id, side: "buy", price: "0.5", qty: "2" });
    place(mock.ctx, {
      wallet: MM_WALLET,
      marketId: m.id,
      side: "sell",
      price: "0.5",
      qty: "5",
      timeInForce: "ioc",
      clientOrderId: "ioc-1",
    });
    const ioc = await mm.take((f) => f.type === "order_cancelled");
    expect(ioc.data).toMatchObject({
      clientOrderId: "ioc-1",
      status: "CANCELLED",
      reason: "unfilled_remainder",
      filledQty: "2",
    });
    const expiry = Math.floor(T0 / 1000) + 60;
    mock.ctx.venue.place({
      wallet: MM_WALLET,
      marketId: m.id,
      outcome: "YES",
      side: "sell",
      price: toWei("0.9"),
      quantity: toWei("1"),
      expiry,
      clientOrderId: "exp-1",
    });
    mock.clock.advanceTo(expiry * 1000);
    const expired = await mm.take((f) => f.type === "order_cancelled" && f.data.clientOrderId === "exp-1");
    expect(expired.data).toMatchObject({ status: "EXPIRED", reason: "expired", expiry });
  });
});

describe("vault_positions", () => {
  it("vault_position_balance_changed (OUTF) per fill at settlement, balanceAfter fill by fill, own vault only", async () => {
    const mmVault = vaultOf(MM_WALLET);
    const otherVault = vaultOf(OTHER_WALLET);
    await mm.subscribe("vault_positions", [mmVault]);
    await other.subscribe("vault_positions", [otherVault]);
    const start = toWei(shares(MM_WALLET, m.yesTokenId));
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.55", qty: "3" });
    place(mock.ctx, { wallet: MM_WALLET, marketId: m.id, side: "sell", price: "0.56", qty: "3" });
    const taker = place(mock.ctx, {
      wallet: OTHER_WALLET,
      marketId: m.id,
      side: "buy",
      price: "0.56",
      qty: "6",
    });
    expect(taker.trades).toHaveLength(2);
    await mm.barrier();
    expect(mm.ofType("vault_position_balance_changed")).toEqual([]); // not before settlement
    mock.clock.advanceBy(1_000);
    const first = await mm.take((f) => f.type === "vault_position_balance_changed");
    const second = await mm.take((f) => f.type === "vault_position_balance_changed");
    expect(first).toMatchObject({ sid: 1, channel: "vault_positions", id: mmVault });
    expect(first.data).toEqual({
      vaultAddress: mmVault,
      tokenId: m.yesTokenId,
      conditionId: m.conditionId,
      outcomeIndex: 0,
      balanceAfter: weiToString(start - toWei("3")),
      reason: "OUTF",
      txHash: settlementTxHash(taker.trades[0]?.id ?? ""),
      blockNumber: Math.floor((T0 + 1_000) / 2_000),
      tsMs: T0 + 1_000,
    });
    expect(second.data.balanceAfter).toBe(weiToString(start - toWei("6")));
    expect(second.data.txHash).toBe(settlementTxHash(taker.trades[1]?.id ?? ""));
    // The buyer pays the taker fee in shares: its balance rises by less than 3 per fill, and the
    // last change equals the venue's balance.
    const b1 = await other.take((f) => f.type === "vault_position_balance_changed");
    const b2 = await other.take((f) => f.type === "vault_position_balance_changed");
    expect(b2.data.balanceAfter).toBe(shares(OTHER_WALLET, m.yesTokenId));
    expect(toWei(b1.data.balanceAfter)).toBeGreaterThan(0n);
    expect(toWei(b1.data.balanceAfter)).toBeLessThan(toWei("3"));
    expect(toWei(b2.data.balanceAfter) - toWei(b1.data.balanceAfter)).toBeLessThan(toWei("3"));
    await mm.barrier();
    expect(mm.frames.filter((f) => f.channel === "vault_positions" && f.id !== mmVault)).toEqual([]);
  });
});
