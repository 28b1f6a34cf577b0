import { describe, expect, it } from "vitest";
import { A, B, binaryMarket, C, harness, M1, NO, order, u, YES } from "./fixture.js";

describe("price-time priority", () => {
  it("fills the best price first, then the oldest order at that price", () => {
    const { venue, clock } = harness();
    const s1 = venue.place(order(A, "sell", "0.55", "10")); // worse price, first in time
    clock.advanceBy(1);
    const s2 = venue.place(order(B, "sell", "0.52", "10")); // best price, older
    clock.advanceBy(1);
    const s3 = venue.place(order(C, "sell", "0.52", "10")); // best price, newer
    clock.advanceBy(1);
    const D = "0x00000000000000000000000000000000000000dd" as const;
    venue.credit(D, "usdc", u("100"));
    const r = venue.place(order(D, "buy", "0.60", "25", { timeInForce: "ioc" }));
    expect(r.trades.map((t) => [t.makerOrderId, t.price, t.quantity])).toEqual([
      [s2.orderId, u("0.52"), u("10")],
      [s3.orderId, u("0.52"), u("10")],
      [s1.orderId, u("0.55"), u("5")],
    ]);
    expect(r.status).toBe("FILLED");
    expect(venue.order(A, s1.orderId)).toMatchObject({
      status: "OPEN",
      filledQty: u("5"),
      remainingQty: u("5"),
    });
  });

  it("a cancelled order loses its place and a new one queues at the back", () => {
    const { venue } = harness();
    const first = venue.place(order(A, "buy", "0.40", "5"));
    const second = venue.place(order(B, "buy", "0.40", "5"));
    venue.cancel(A, first.orderId);
    const again = venue.place(order(A, "buy", "0.40", "5"));
    const r = venue.place(order(C, "sell", "0.40", "7"));
    expect(r.trades.map((t) => [t.makerOrderId, t.quantity])).toEqual([
      [second.orderId, u("5")],
      [again.orderId, u("2")],
    ]);
  });

  it("fills at the maker's price: a buyer crossing deep gets the resting price", () => {
    const { venue } = harness();
    venue.place(order(B, "sell", "0.30", "10"));
    const r = venue.place(order(A, "buy", "0.90", "10"));
    expect(r.trades[0]?.price).toBe(u("0.30"));
    expect(r.trades[0]?.notional).toBe(u("3"));
  });

  it("YES and NO are separate books: a YES bid never matches a NO bid or ask", () => {
    const { venue } = harness();
    venue.place(order(B, "buy", "0.60", "10", { outcome: "NO" }));
    venue.place(order(B, "sell", "0.30", "10", { outcome: "NO" }));
    const r = venue.place(order(A, "buy", "0.40", "10"));
    expect(r.status).toBe("OPEN");
    expect(r.trades).toEqual([]);
    expect(venue.bookSnapshot(YES)?.bids).toEqual([{ price: u("0.40"), size: u("10") }]);
    expect(venue.bookSnapshot(NO)?.asks).toEqual([{ price: u("0.30"), size: u("10") }]);
  });
});

describe("partial fills across levels", () => {
  it("sweeps levels, rests the remainder at its limit, and reports PARTIAL", () => {
    const { venue } = harness();
    venue.place(order(B, "sell", "0.50", "3"));
    venue.place(order(B, "sell", "0.51", "4"));
    venue.place(order(B, "sell", "0.53", "100"));
    const r = venue.place(order(A, "buy", "0.52", "10"));
    expect(r).toMatchObject({ status: "PARTIAL", filledQty: u("7"), remainingQty: u("3") });
    expect(r.trades.map((t) => t.price)).toEqual([u("0.50"), u("0.51")]);
    const book = venue.bookSnapshot(YES);
    expect(book?.bids).toEqual([{ price: u("0.52"), size: u("3") }]);
    expect(book?.asks).toEqual([{ price: u("0.53"), size: u("100") }]);
  });

  it("a resting order is filled by several takers over time", () => {
    const { venue } = harness();
    const maker = venue.place(order(A, "sell", "0.70", "10"));
    venue.place(order(B, "buy", "0.70", "4"));
    venue.place(order(C, "buy", "0.75", "4"));
    expect(venue.order(A, maker.orderId)).toMatchObject({ status: "OPEN", filledQty: u("8") });
    venue.place(order(B, "buy", "0.80", "5"));
    expect(venue.order(A, maker.orderId)).toMatchObject({ status: "FILLED", filledQty: u("10") });
    expect(venue.order(A, maker.orderId)?.tradeIds).toHaveLength(3);
  });
});

describe("time in force and order types", () => {
  // Book for every case: asks 0.50 × 5 (B), 0.55 × 5 (C).
  const cases = [
    {
      name: "limit GTC rests its remainder",
      o: { price: "0.52", qty: "8" },
      status: "PARTIAL",
      filled: "5",
      rests: "3",
    },
    {
      name: "limit GTC with no cross rests whole",
      o: { price: "0.45", qty: "8" },
      status: "OPEN",
      filled: "0",
      rests: "8",
    },
    {
      name: "limit IOC cancels its remainder",
      o: { price: "0.52", qty: "8", tif: "ioc" },
      status: "PARTIAL",
      filled: "5",
      rests: null,
    },
    {
      name: "limit IOC fills whole when it can",
      o: { price: "0.55", qty: "8", tif: "ioc" },
      status: "FILLED",
      filled: "8",
      rests: null,
    },
    {
      name: "limit IOC with nothing to match is rejected",
      o: { price: "0.45", qty: "8", tif: "ioc" },
      status: "REJECTED",
      code: "matcher_error",
      filled: "0",
      rests: null,
    },
    {
      name: "limit FOK fills whole across levels",
      o: { price: "0.55", qty: "10", tif: "fok" },
      status: "FILLED",
      filled: "10",
      rests: null,
    },
    {
      name: "limit FOK that cannot fill whole is rejected",
      o: { price: "0.55", qty: "10.000001", tif: "fok" },
      status: "REJECTED",
      code: "matcher_error",
      filled: "0",
      rests: null,
    },
    {
      name: "limit FOK limited by its price is rejected",
      o: { price: "0.52", qty: "6", tif: "fok" },
      status: "REJECTED",
      code: "matcher_error",
      filled: "0",
      rests: null,
    },
    {
      name: "market (default IOC) fills up to its worst price",
      o: { price: "0.52", qty: "8", type: "market" },
      status: "PARTIAL",
      filled: "5",
      rests: null,
    },
    {
      name: "market FOK",
      o: { price: "0.99", qty: "10", type: "market", tif: "fok" },
      status: "FILLED",
      filled: "10",
      rests: null,
    },
    {
      name: "market GTC is invalid_tif",
      o: { price: "0.99", qty: "1", type: "market", tif: "gtc" },
      status: "REJECTED",
      code: "invalid_tif",
      filled: "0",
      rests: null,
    },
  ] as const;

  it.each(cases)("$name", (c) => {
    const { venue } = harness();
    venue.place(order(B, "sell", "0.50", "5"));
    venue.place(order(C, "sell", "0.55", "5"));
    const before = venue.bookSnapshot(YES);
    const extra = {
      ...("tif" in c.o ? { timeInForce: c.o.tif } : {}),
      ...("type" in c.o ? { type: c.o.type } : {}),
    };
    const r = venue.place(order(A, "buy", c.o.price, c.o.qty, extra));
    expect(r.status).toBe(c.status);
    expect(r.filledQty).toBe(u(c.filled));
    if ("code" in c) {
      expect(r.code).toBe(c.code);
      expect(r.orderId).toBe("");
      expect(venue.bookSnapshot(YES)).toEqual(before);
      expect(venue.openOrders(A)).toEqual([]);
      expect(venue.balances(A).usdc).toEqual({ balance: u("1000"), reserved: 0n, available: u("1000") });
      return;
    }
    const placed = venue.order(A, r.orderId);
    if (c.rests === null) {
      expect(venue.bookSnapshot(YES)?.bids).toEqual([]);
      expect(placed?.status).toBe(c.status === "FILLED" ? "FILLED" : "CANCELLED");
      expect(venue.balances(A).usdc.reserved).toBe(0n);
    } else {
      expect(venue.bookSnapshot(YES)?.bids).toEqual([{ price: u(c.o.price), size: u(c.rests) }]);
      expect(placed?.status).toBe("OPEN");
    }
  });

  it("FOK refusal leaves every order, balance, seq and event stream untouched", () => {
    const { venue, events } = harness();
    venue.place(order(B, "sell", "0.50", "5"));
    venue.place(order(A, "sell", "0.51", "5")); // A's own ask would be cancelled by STP only if A traded
    const snapshot = venue.bookSnapshot(YES);
    const balances = [A, B].map((w) => [venue.balances(w), venue.positions(w)]);
    events.length = 0;
    const r = venue.place(order(A, "buy", "0.60", "6", { timeInForce: "fok" }));
    expect(r).toMatchObject({
      status: "REJECTED",
      code: "matcher_error",
      details: { executable: `${u("5")}` },
    });
    expect(venue.bookSnapshot(YES)).toEqual(snapshot);
    expect([A, B].map((w) => [venue.balances(w), venue.positions(w)])).toEqual(balances);
    expect(venue.openOrders(A)).toHaveLength(1);
    expect(events).toEqual([]);
  });
});

describe("self-trade prevention", () => {
  it("cancel_resting: the wallet's own resting order is cancelled, matching continues behind it", () => {
    const { venue, events } = harness();
    const own = venue.place(order(A, "sell", "0.50", "5"));
    const other = venue.place(order(B, "sell", "0.50", "5"));
    const r = venue.place(order(A, "buy", "0.50", "5"));
    expect(r.trades.map((t) => t.makerOrderId)).toEqual([other.orderId]);
    expect(venue.order(A, own.orderId)?.status).toBe("CANCELLED");
    expect(events).toContainEqual(expect.objectContaining({ type: "order_cancelled", reason: "self_trade" }));
    expect(venue.positions(A).find((p) => p.tokenId === YES)?.reserved).toBe(0n);
  });

  it("cancel_resting: a FOK only counts other wallets' liquidity", () => {
    const { venue } = harness();
    venue.place(order(A, "sell", "0.50", "5"));
    venue.place(order(B, "sell", "0.50", "5"));
    expect(venue.place(order(A, "buy", "0.50", "6", { timeInForce: "fok" })).status).toBe("REJECTED");
    expect(venue.openOrders(A)).toHaveLength(1); // nothing cancelled by the refused FOK
  });

  it("allow: the wallet trades with itself and pays both fees", () => {
    const { venue } = harness({ selfTrade: "allow", defaultFeeTakerBps: 100, makerFeeBps: 40 }, [
      binaryMarket(M1, YES, NO, { feeTakerBps: null }),
    ]);
    const own = venue.place(order(A, "sell", "0.50", "5"));
    const r = venue.place(order(A, "buy", "0.50", "5"));
    expect(r.trades.map((t) => t.makerOrderId)).toEqual([own.orderId]);
    expect(r.trades[0]?.makerWallet).toBe(r.trades[0]?.takerWallet);
    // taker buy: 5 × 0.01 × 0.25 = 0.0125 shares; maker sell: 5 × 0.5 × 0.004 × 0.25 = 0.0025 USDC
    const rows = venue.walletTrades(A, { limit: 10 }).items;
    expect(rows.map((row) => [row.role, row.side, row.fee])).toEqual([
      ["taker", "buy", { asset: "shares", amount: 12_500n }],
      ["maker", "sell", { asset: "usdc", amount: 2_500n }],
    ]);
    expect(venue.balances(A).usdc.balance).toBe(u("1000") - 2_500n);
    expect(venue.positions(A).find((p) => p.tokenId === YES)?.balance).toBe(u("1000") - 12_500n);
  });
});
