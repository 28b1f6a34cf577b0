import { describe, expect, it } from "vitest";
import { A, B, C, harness, order, YES } from "./fixture.js";

/*
 * The count bound of the venue's retention (retainMaxPerWallet): a long paper run must not keep
 * every closed order and trade of the busy wallets (the mock's flow), and one wallet's churn must
 * not push another wallet's history out.
 */

const CAP = 8; // trims at CAP + ⌈CAP/8⌉ = 9 kept, back to CAP

describe("retention count bound per wallet", () => {
  it("drops a wallet's oldest closed orders past the bound, keeping its open orders and other wallets' history", () => {
    const { venue } = harness({ retainClosedMs: 86_400_000, retainMaxPerWallet: CAP });
    const resting = venue.place(order(A, "buy", "0.10", "1"));
    const other = venue.place(order(B, "buy", "0.10", "1"));
    venue.cancel(B, other.orderId);
    const closed: string[] = [];
    for (let i = 0; i < 20; i++) {
      const o = venue.place(order(A, "buy", "0.20", "1", { clientOrderId: `c${i}` }));
      venue.cancel(A, o.orderId);
      closed.push(o.orderId);
    }
    const history = venue.orderHistory(A, { limit: 100 }).items.map((o) => o.id);
    expect(history).toEqual([...closed.slice(-CAP).reverse(), resting.orderId]);
    expect(venue.order(A, closed[0] as string)).toBeUndefined();
    expect(venue.order(A, resting.orderId)?.status).toBe("OPEN");
    expect(venue.order(B, other.orderId)?.status).toBe("CANCELLED");
    // A dropped order's clientOrderId is free again; a kept one is still deduplicated.
    expect(venue.place(order(A, "buy", "0.20", "1", { clientOrderId: "c0" })).duplicate).toBeUndefined();
    expect(venue.place(order(A, "buy", "0.20", "1", { clientOrderId: "c19" })).duplicate).toBe(true);
  });

  it("drops a wallet's oldest trade rows and each token's oldest trades, not another wallet's rows", () => {
    const { venue } = harness({
      retainClosedMs: 86_400_000,
      retainMaxPerWallet: CAP,
      retainTradesPerToken: CAP,
    });
    // C's one trade with B comes first: B's row of it goes with B's churn, C's stays.
    const cBid = venue.place(order(C, "buy", "0.50", "1"));
    venue.place(order(B, "sell", "0.50", "1", { timeInForce: "ioc" }));
    const aBid = venue.place(order(A, "buy", "0.40", "20"));
    for (let i = 0; i < 20; i++) venue.place(order(B, "sell", "0.40", "1", { timeInForce: "ioc" }));
    // A: 20 rows, trimmed at the 10th and 20th back to 8. B (21 rows) and the tape (21 trades)
    // were trimmed at their 20th and hold 9: within CAP + ⌈CAP/8⌉.
    const aRows = venue.walletTrades(A, { limit: 100 }).items;
    expect(aRows).toHaveLength(CAP);
    expect(venue.orderFills(A, aBid.orderId)?.map((r) => r.tradeId)).toEqual(
      aRows.map((r) => r.tradeId).reverse(),
    );
    expect(venue.walletTrades(B, { limit: 100 }).items).toHaveLength(CAP + 1);
    expect(venue.recentTrades(YES, 100).map((t) => t.id)).toEqual([
      ...aRows.map((r) => r.tradeId),
      venue.walletTrades(B, { limit: 100 }).items[CAP]?.tradeId,
    ]);
    expect(venue.walletTrades(C, { limit: 100 }).items).toHaveLength(1);
    expect(venue.orderFills(C, cBid.orderId)).toHaveLength(1);
  });
});
