import { describe, expect, it } from "vitest";
import { A, B, C, harness, order, u, YES } from "./fixture.js";

/*
 * The venue's two backtest extensions: amend (a resting order's remaining quantity changed in
 * place, keeping its queue position) and transient wallets (closed orders and trade rows not kept).
 */

describe("amend", () => {
  it("keeps time priority: a grown order still fills before an order placed after it", () => {
    const { venue } = harness();
    const first = venue.place(order(A, "sell", "0.60", "5"));
    venue.place(order(B, "sell", "0.60", "5"));
    expect(venue.amend(A, first.orderId, u("8"))).toMatchObject({ ok: true, order: { quantity: u("8") } });
    const take = venue.place(order(C, "buy", "0.60", "8", { timeInForce: "ioc" }));
    expect(take.trades.map((t) => [t.makerWallet, t.quantity])).toEqual([[A, u("8")]]);
    expect(venue.bookSnapshot(YES)?.asks).toEqual([{ price: u("0.60"), size: u("5") }]);
  });

  it("moves the reservation with the size, both ways, and refuses growth beyond the balance", () => {
    const { venue } = harness();
    const bid = venue.place(order(A, "buy", "0.50", "100"));
    expect(venue.balances(A).usdc.reserved).toBe(u("50"));
    venue.amend(A, bid.orderId, u("40"));
    expect(venue.balances(A).usdc).toMatchObject({ reserved: u("20"), balance: u("1000") });
    venue.amend(A, bid.orderId, u("1900"));
    expect(venue.balances(A).usdc.reserved).toBe(u("950"));
    const refused = venue.amend(A, bid.orderId, u("2100"));
    expect(refused).toMatchObject({ ok: false, code: "insufficient_funds" });
    expect(venue.balances(A).usdc.reserved).toBe(u("950"));
    const ask = venue.place(order(B, "sell", "0.70", "10"));
    venue.amend(B, ask.orderId, u("3"));
    expect(venue.positions(B).find((p) => p.tokenId === YES)?.reserved).toBe(u("3"));
  });

  it("counts partial fills: quantity becomes filled + remaining, the buy reservation its rest", () => {
    const { venue } = harness();
    const bid = venue.place(order(A, "buy", "0.50", "10"));
    venue.place(order(B, "sell", "0.50", "4", { timeInForce: "ioc" }));
    const r = venue.amend(A, bid.orderId, u("2"));
    expect(r).toMatchObject({
      ok: true,
      order: { quantity: u("6"), filledQty: u("4"), remainingQty: u("2") },
    });
    expect(venue.balances(A).usdc).toMatchObject({ balance: u("998"), reserved: u("1") });
  });

  it("publishes the level change as a book diff and nothing else", () => {
    const { venue, events } = harness();
    const bid = venue.place(order(A, "buy", "0.50", "10"));
    events.length = 0;
    venue.amend(A, bid.orderId, u("7"));
    expect(events).toMatchObject([
      { type: "book_changes", tokenId: YES, changes: [{ side: "buy", price: u("0.50"), size: u("7") }] },
    ]);
  });

  it("refuses unknown, foreign, closed orders and a zero size", () => {
    const { venue } = harness();
    const bid = venue.place(order(A, "buy", "0.50", "10"));
    expect(venue.amend(A, "nope", u("1"))).toMatchObject({ ok: false, code: "order_not_found" });
    expect(venue.amend(B, bid.orderId, u("1"))).toMatchObject({ ok: false, code: "forbidden" });
    expect(venue.amend(A, bid.orderId, 0n)).toMatchObject({ ok: false, code: "invalid_amounts" });
    venue.cancel(A, bid.orderId);
    expect(venue.amend(A, bid.orderId, u("1"))).toMatchObject({ ok: false, code: "not_cancellable" });
  });
});

describe("transient wallets", () => {
  it("forget closed orders and keep no trade rows, while the other side keeps its own", () => {
    const { venue } = harness({ transientWallets: [B] });
    const rest = venue.place(order(B, "sell", "0.60", "5"));
    expect(venue.order(B, rest.orderId)?.status).toBe("OPEN");
    expect(venue.openOrders(B)).toHaveLength(1);
    const take = venue.place(order(A, "buy", "0.60", "5"));
    expect(take.status).toBe("FILLED");
    expect(venue.order(B, rest.orderId)).toBeUndefined();
    expect(venue.orderHistory(B, { limit: 10 }).items).toEqual([]);
    expect(venue.walletTrades(B, { limit: 10 }).items).toEqual([]);
    expect(venue.walletTrades(A, { limit: 10 }).items.map((r) => r.role)).toEqual(["taker"]);
    expect(venue.recentTrades(YES, 10)).toHaveLength(1);
    const cancelled = venue.place(order(B, "buy", "0.40", "5"));
    venue.cancel(B, cancelled.orderId);
    expect(venue.order(B, cancelled.orderId)).toBeUndefined();
  });

  it("keep no trade at all between two transient wallets", () => {
    const { venue } = harness({ transientWallets: [B, C] });
    venue.place(order(B, "sell", "0.60", "5"));
    venue.place(order(C, "buy", "0.60", "5"));
    expect(venue.recentTrades(YES, 10)).toEqual([]);
    expect(venue.balances(C).usdc.balance).toBe(u("997"));
  });
});

describe("retention of closed orders and past trades", () => {
  it("forgets them once retainClosedMs has passed, keeping open orders and recent history", () => {
    const { venue, clock } = harness({ retainClosedMs: 60_000 });
    const old = venue.place(order(A, "buy", "0.40", "5", { clientOrderId: "old" }));
    venue.place(order(B, "sell", "0.40", "5"));
    const resting = venue.place(order(A, "buy", "0.30", "5"));
    clock.advanceBy(50_000);
    const recent = venue.place(order(A, "buy", "0.35", "1"));
    venue.cancel(A, recent.orderId);
    expect(venue.walletTrades(A, { limit: 10 }).items).toHaveLength(1);
    clock.advanceBy(20_000);
    venue.openOrders(A); // any call sweeps
    expect(venue.order(A, old.orderId)).toBeUndefined();
    expect(venue.walletTrades(A, { limit: 10 }).items).toEqual([]);
    expect(venue.recentTrades(YES, 10)).toEqual([]);
    expect(venue.orderHistory(A, { limit: 10 }).items.map((o) => o.id)).toEqual([
      recent.orderId,
      resting.orderId,
    ]);
    expect(venue.order(A, resting.orderId)?.status).toBe("OPEN");
    // The clientOrderId of a forgotten order is free again: a new placement, not a duplicate.
    expect(venue.place(order(A, "buy", "0.40", "1", { clientOrderId: "old" })).duplicate).toBeUndefined();
  });

  it("keeps everything by default", () => {
    const { venue, clock } = harness();
    const o = venue.place(order(A, "buy", "0.40", "5"));
    venue.cancel(A, o.orderId);
    clock.advanceBy(86_400_000);
    expect(venue.order(A, o.orderId)?.status).toBe("CANCELLED");
  });
});
