import { describe, expect, it } from "vitest";
import { A, B, binaryMarket, harness, M1, M2, NO, order, T0, u, YES } from "./fixture.js";

describe("placement validation", () => {
  const cases = [
    { name: "zero price", o: { price: "0" }, code: "invalid_amounts" },
    { name: "zero quantity", o: { qty: "0" }, code: "invalid_amounts" },
    { name: "off tick", o: { price: "0.505" }, code: "invalid_amounts", reason: "off_tick" },
    {
      name: "price 1 is out of band",
      o: { price: "1" },
      code: "invalid_amounts",
      reason: "price_out_of_band",
    },
    { name: "unknown outcome", o: { outcome: "MAYBE" }, code: "invalid_outcome" },
    { name: "outcome index out of range", o: { outcome: "2" }, code: "invalid_outcome" },
    { name: "unknown market", o: { marketId: "nope" }, code: "market_not_open", reason: "unknown_market" },
    { name: "market GTC", o: { type: "market", tif: "gtc" }, code: "invalid_tif" },
    { name: "expiry in the past", o: { expiry: T0 / 1000 - 1 }, code: "expired" },
    { name: "expiry now", o: { expiry: T0 / 1000 }, code: "expired" },
  ] as const;

  it.each(cases)("$name → $code", (c) => {
    const { venue, events } = harness();
    events.length = 0;
    const o = c.o as {
      price?: string;
      qty?: string;
      outcome?: string;
      marketId?: string;
      type?: "market";
      tif?: "gtc";
      expiry?: number;
    };
    const r = venue.place(
      order(A, "buy", o.price ?? "0.50", o.qty ?? "1", {
        ...(o.outcome === undefined ? {} : { outcome: o.outcome }),
        ...(o.marketId === undefined ? {} : { marketId: o.marketId }),
        ...(o.type === undefined ? {} : { type: o.type }),
        ...(o.tif === undefined ? {} : { timeInForce: o.tif }),
        ...(o.expiry === undefined ? {} : { expiry: o.expiry }),
      }),
    );
    expect(r).toMatchObject({ status: "REJECTED", code: c.code, orderId: "", filledQty: 0n, trades: [] });
    if ("reason" in c) expect(r.details).toMatchObject({ reason: c.reason });
    expect(events).toEqual([]);
    expect(venue.orderHistory(A, { limit: 10 }).items).toEqual([]);
  });

  it("accepts outcomes by label in any case and by index; respects the tick band and min size", () => {
    const { venue } = harness({}, [binaryMarket(M1, YES, NO, { tickSize: u("0.001"), minSize: u("5") })]);
    expect(venue.place(order(A, "buy", "0.001", "5", { outcome: "yes" })).status).toBe("OPEN");
    expect(venue.place(order(A, "buy", "0.999", "5", { outcome: "1" })).status).toBe("OPEN");
    expect(venue.order(A, "o-000000002")?.tokenId).toBe(NO);
    const small = venue.place(order(A, "buy", "0.5", "4.999999"));
    expect(small).toMatchObject({ code: "invalid_amounts", details: { reason: "below_min_size" } });
  });
});

describe("market status", () => {
  it("placements on a market that is not OPEN get market_not_open; cancels still work", () => {
    const { venue, events } = harness();
    const resting = venue.place(order(A, "buy", "0.40", "1"));
    venue.setMarketStatus(M1, "PAUSED");
    expect(events.at(-1)).toMatchObject({ type: "market_status", status: "PAUSED", previous: "OPEN" });
    expect(venue.place(order(B, "sell", "0.40", "1"))).toMatchObject({
      status: "REJECTED",
      code: "market_not_open",
      details: { status: "PAUSED" },
    });
    expect(venue.place(order(B, "sell", "0.40", "1", { marketId: M2 })).status).toBe("OPEN");
    expect(venue.cancel(A, resting.orderId).ok).toBe(true);
    venue.setMarketStatus(M1, "OPEN");
    expect(venue.place(order(B, "sell", "0.40", "1")).status).toBe("OPEN");
  });

  it("closing with cancelOpenOrders empties the market's books and releases funds", () => {
    const { venue } = harness();
    venue.place(order(A, "buy", "0.40", "10"));
    venue.place(order(B, "sell", "0.60", "10", { outcome: "NO" }));
    venue.place(order(B, "sell", "0.60", "10", { marketId: M2 }));
    expect(venue.setMarketStatus(M1, "CLOSED", { cancelOpenOrders: true })).toBe(2);
    expect(venue.bookSnapshot(YES)?.bids).toEqual([]);
    expect(venue.balances(A).usdc.reserved).toBe(0n);
    expect(venue.openOrders(B)).toHaveLength(1);
  });
});

describe("cancel", () => {
  it("order_not_found, forbidden, not_cancellable, then success", () => {
    const { venue } = harness();
    const open = venue.place(order(A, "buy", "0.40", "1"));
    expect(venue.cancel(A, "missing")).toMatchObject({ ok: false, code: "order_not_found" });
    expect(venue.cancel(B, open.orderId)).toMatchObject({ ok: false, code: "forbidden" });
    const ok = venue.cancel(A, open.orderId);
    expect(ok).toMatchObject({ ok: true, order: { status: "CANCELLED", reserved: 0n } });
    expect(venue.cancel(A, open.orderId)).toMatchObject({
      ok: false,
      code: "not_cancellable",
      details: { status: "CANCELLED" },
    });
    venue.place(order(A, "sell", "0.50", "1"));
    const filled = venue.place(order(B, "buy", "0.50", "1"));
    expect(venue.cancel(B, filled.orderId)).toMatchObject({ ok: false, code: "not_cancellable" });
  });

  it("cancel-all cancels the wallet's open orders, scoped by market, and counts them", () => {
    const { venue } = harness();
    venue.place(order(A, "buy", "0.40", "1"));
    venue.place(order(A, "sell", "0.60", "1", { outcome: "NO" }));
    venue.place(order(A, "buy", "0.40", "1", { marketId: M2 }));
    venue.place(order(B, "buy", "0.41", "1"));
    venue.place(order(A, "sell", "0.41", "1")); // fills B: not open, not counted
    expect(venue.cancelAll(A, M1)).toEqual({ cancelled: 2, marketId: M1 });
    expect(venue.openOrders(A).map((o) => o.marketId)).toEqual([M2]);
    expect(venue.cancelAll(A)).toEqual({ cancelled: 1 });
    expect(venue.cancelAll(A)).toEqual({ cancelled: 0 });
    expect(venue.balances(A).usdc.reserved).toBe(0n);
  });
});

describe("clientOrderId deduplication", () => {
  it("a repeat returns the original result and creates nothing", () => {
    const { venue, events } = harness();
    const first = venue.place(order(A, "buy", "0.40", "1", { clientOrderId: "c-1" }));
    const n = events.length;
    const again = venue.place(order(A, "buy", "0.45", "9", { clientOrderId: "c-1" }));
    expect(again).toEqual({ ...first, duplicate: true });
    expect(venue.openOrders(A)).toHaveLength(1);
    expect(events).toHaveLength(n);
    expect(venue.balances(A).usdc.reserved).toBe(u("0.40"));
  });

  it("is per wallet, and rejected placements do not consume the id", () => {
    const { venue } = harness();
    venue.place(order(A, "buy", "0.40", "1", { clientOrderId: "c-1" }));
    expect(venue.place(order(B, "buy", "0.40", "1", { clientOrderId: "c-1" })).duplicate).toBeUndefined();
    const rejected = venue.place(order(A, "buy", "0.40", "5000", { clientOrderId: "c-2" }));
    expect(rejected.code).toBe("insufficient_funds");
    const retry = venue.place(order(A, "buy", "0.40", "5", { clientOrderId: "c-2" }));
    expect(retry.status).toBe("OPEN");
    expect(venue.order(A, retry.orderId)?.clientOrderId).toBe("c-2");
  });

  it("returns the original even after the order filled or the market paused", () => {
    const { venue } = harness();
    const first = venue.place(order(A, "buy", "0.40", "1", { clientOrderId: "c-1" }));
    venue.place(order(B, "sell", "0.40", "1"));
    venue.setMarketStatus(M1, "PAUSED");
    expect(venue.place(order(A, "buy", "0.40", "1", { clientOrderId: "c-1" }))).toMatchObject({
      orderId: first.orderId,
      duplicate: true,
    });
    expect(venue.order(A, first.orderId)?.status).toBe("FILLED");
  });
});

describe("expiry", () => {
  it("the Clock timer expires a resting order at its deadline and releases its funds", () => {
    const { venue, clock, events } = harness();
    const expiry = T0 / 1000 + 60;
    const r = venue.place(order(A, "buy", "0.40", "10", { expiry }));
    clock.advanceTo(expiry * 1000 - 1);
    expect(venue.order(A, r.orderId)?.status).toBe("OPEN");
    events.length = 0;
    clock.advanceTo(expiry * 1000);
    expect(events.map((e) => e.type)).toEqual(["order_expired", "book_changes"]);
    expect(events[0]).toMatchObject({ tsMs: expiry * 1000 });
    expect(venue.order(A, r.orderId)).toMatchObject({
      status: "EXPIRED",
      reserved: 0n,
      updatedAt: expiry * 1000,
    });
    expect(venue.balances(A).usdc.reserved).toBe(0n);
    expect(venue.bookSnapshot(YES)?.bids).toEqual([]);
  });

  it("an order past its expiry is never matched, even before its timer runs", () => {
    const { venue, clock } = harness();
    const expiry = T0 / 1000 + 1;
    const r = venue.place(order(A, "sell", "0.40", "10", { expiry }));
    venue.dispose(); // no timer: only the sweep at the start of each call can expire it
    clock.advanceTo(expiry * 1000 + 5);
    const taker = venue.place(order(B, "buy", "0.40", "10"));
    expect(taker.status).toBe("OPEN");
    expect(venue.order(A, r.orderId)?.status).toBe("EXPIRED");
  });

  it("expiries fire in deadline order; filled and cancelled orders are skipped", () => {
    const { venue, clock, events } = harness();
    const base = T0 / 1000;
    const late = venue.place(order(A, "buy", "0.30", "1", { expiry: base + 30 }));
    const early = venue.place(order(A, "buy", "0.31", "1", { expiry: base + 10 }));
    const cancelled = venue.place(order(A, "buy", "0.32", "1", { expiry: base + 5 }));
    venue.cancel(A, cancelled.orderId);
    events.length = 0;
    clock.advanceTo((base + 60) * 1000);
    const expired = events.filter((e) => e.type === "order_expired");
    expect(expired.map((e) => [e.order.id, e.tsMs])).toEqual([
      [early.orderId, (base + 10) * 1000],
      [late.orderId, (base + 30) * 1000],
    ]);
  });
});
