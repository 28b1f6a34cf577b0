import { describe, expect, it } from "vitest";
import type { BookChangesEvent, VenueEvent } from "../../../src/venue/events.js";
import type { BookLevel } from "../../../src/venue/order-book.js";
import { A, B, C, harness, NO, order, T0, u, YES } from "./fixture.js";

describe("events of a placement", () => {
  it("order_placed, then per fill the trade print and both wallets' fills, then one book diff", () => {
    const { venue, events } = harness();
    const maker = venue.place(order(A, "sell", "0.60", "5", { clientOrderId: "ask-1" }));
    events.length = 0;
    const r = venue.place(order(B, "buy", "0.60", "3", { clientOrderId: "bid-1" }));
    const tradeId = r.trades[0]?.id;
    expect(events.map((e) => e.type)).toEqual(["order_placed", "trade", "fill", "fill", "book_changes"]);
    expect(events[0]).toMatchObject({ order: { id: r.orderId, clientOrderId: "bid-1", status: "OPEN" } });
    expect(events[1]).toMatchObject({
      tokenId: YES,
      tradeId,
      price: u("0.60"),
      quantity: u("3"),
      side: "buy",
    });
    const common = {
      type: "fill",
      tradeId,
      tokenId: YES,
      conditionId: venue.market("market-1")?.conditionId,
      outcomeIndex: 0,
      price: u("0.60"),
      quantity: u("3"),
      tsMs: T0,
    };
    expect(events[2]).toEqual({
      ...common,
      walletAddress: A,
      side: "sell",
      orderId: maker.orderId,
      clientOrderId: "ask-1",
      role: "maker",
      fee: { asset: "usdc", amount: 0n },
    });
    expect(events[3]).toEqual({
      ...common,
      walletAddress: B,
      side: "buy",
      orderId: r.orderId,
      clientOrderId: "bid-1",
      role: "taker",
      fee: { asset: "shares", amount: 0n },
    });
    expect(events[4]).toMatchObject({
      type: "book_changes",
      tokenId: YES,
      seq: 2,
      prevSeq: 1,
      changes: [{ side: "sell", price: u("0.60"), size: u("2") }],
    });
  });

  it("an IOC remainder is announced as order_cancelled with reason unfilled_remainder", () => {
    const { venue, events } = harness();
    venue.place(order(A, "sell", "0.60", "1"));
    events.length = 0;
    venue.place(order(B, "buy", "0.60", "3", { timeInForce: "ioc" }));
    expect(events.find((e) => e.type === "order_cancelled")).toMatchObject({
      reason: "unfilled_remainder",
      order: { status: "CANCELLED", filledQty: u("1"), remainingQty: u("2") },
    });
  });

  it("an operation that leaves every level total unchanged emits no book diff and keeps seq", () => {
    const { venue, events } = harness();
    venue.place(order(A, "buy", "0.40", "1"));
    const seq = venue.bookSnapshot(YES)?.seq;
    events.length = 0;
    venue.place(order(A, "buy", "0.10", "0.5", { outcome: "NO" }));
    expect(
      events.filter((e) => e.type === "book_changes").map((e) => (e as BookChangesEvent).tokenId),
    ).toEqual([NO]);
    expect(venue.bookSnapshot(YES)?.seq).toBe(seq);
  });
});

describe("book snapshot", () => {
  it("aggregates levels: bids descending, asks ascending, limited by depth", () => {
    const { venue } = harness();
    for (const p of ["0.30", "0.35", "0.31"]) venue.place(order(A, "buy", p, "1"));
    venue.place(order(B, "buy", "0.35", "2.5"));
    for (const p of ["0.70", "0.65", "0.90"]) venue.place(order(C, "sell", p, "3"));
    const s = venue.bookSnapshot(YES);
    expect(s?.bids).toEqual([
      { price: u("0.35"), size: u("3.5") },
      { price: u("0.31"), size: u("1") },
      { price: u("0.30"), size: u("1") },
    ]);
    expect(s?.asks.map((l) => l.price)).toEqual([u("0.65"), u("0.70"), u("0.90")]);
    expect(venue.bookSnapshot(YES, 2)?.bids).toHaveLength(2);
    expect(s).toMatchObject({ tokenId: YES, outcomeIndex: 0, seq: 7, tsMs: T0 });
    expect(venue.bookSnapshot("404")).toBeUndefined();
  });
});

describe("book diffs", () => {
  it("seq is contiguous per token and replaying the diffs reproduces the snapshot", () => {
    const { venue, clock, events } = harness();
    const start = venue.bookSnapshot(YES);
    const script: (() => unknown)[] = [
      () => venue.place(order(A, "buy", "0.40", "5")),
      () => venue.place(order(B, "buy", "0.41", "5")),
      () => venue.place(order(C, "sell", "0.45", "2")),
      () => venue.place(order(C, "sell", "0.40", "7")), // sweeps 0.41, part of 0.40
      () => venue.place(order(A, "buy", "0.50", "1", { expiry: T0 / 1000 + 1 })),
      () => clock.advanceBy(2_000), // expiry via timer
      () => venue.cancelAll(A),
      () => venue.place(order(B, "buy", "0.44", "1", { outcome: "NO" })), // other token
      () => venue.place(order(A, "buy", "0.46", "3", { timeInForce: "ioc" })),
    ];
    for (const step of script) step();
    const deltas = events.filter(
      (e): e is BookChangesEvent => e.type === "book_changes" && e.tokenId === YES,
    );
    expect(deltas.map((d) => d.prevSeq)).toEqual(deltas.map((_, i) => (start?.seq ?? 0) + i));
    expect(deltas.map((d) => d.seq)).toEqual(deltas.map((_, i) => (start?.seq ?? 0) + i + 1));
    const replayed = replay(start?.bids ?? [], start?.asks ?? [], deltas);
    const end = venue.bookSnapshot(YES);
    expect(replayed).toEqual({ bids: end?.bids, asks: end?.asks });
    expect(deltas.at(-1)?.seq).toBe(end?.seq);
  });
});

describe("listeners", () => {
  it("may call back into the venue; nested events queue behind the current ones", () => {
    const { venue } = harness();
    const seen: string[] = [];
    venue.subscribe((e) => {
      seen.push(e.type === "fill" ? `fill:${e.role}` : e.type);
      // A market maker that re-quotes the moment its ask is hit.
      if (e.type === "fill" && e.walletAddress === A && e.role === "maker") {
        venue.place(order(A, "sell", "0.61", "1"));
      }
    });
    venue.place(order(A, "sell", "0.60", "1"));
    seen.length = 0;
    venue.place(order(B, "buy", "0.60", "1"));
    expect(seen).toEqual([
      "order_placed",
      "trade",
      "fill:maker",
      "fill:taker",
      "book_changes",
      "order_placed", // the nested placement, after the outer operation's events
      "book_changes",
    ]);
    expect(venue.bookSnapshot(YES)?.asks).toEqual([{ price: u("0.61"), size: u("1") }]);
  });

  it("a throwing listener does not stop delivery; the error surfaces after the state committed", () => {
    const { venue } = harness();
    const got: VenueEvent["type"][] = [];
    venue.subscribe(() => {
      throw new Error("boom");
    });
    venue.subscribe((e) => got.push(e.type));
    expect(() => venue.place(order(A, "buy", "0.40", "1"))).toThrow(
      expect.objectContaining({ code: "venue_listener_failed" }),
    );
    expect(got).toEqual(["order_placed", "book_changes"]);
    expect(venue.openOrders(A)).toHaveLength(1);
  });

  it("onListenerError receives listener errors instead", () => {
    const errors: string[] = [];
    const { venue } = harness({ onListenerError: (_err, e) => errors.push(e.type) });
    venue.subscribe(() => {
      throw new Error("boom");
    });
    expect(venue.place(order(A, "buy", "0.40", "1")).status).toBe("OPEN");
    expect(errors).toEqual(["order_placed", "book_changes"]);
  });
});

/** Applies book_delta changes to aggregated levels the way a WebSocket client would. */
function replay(
  bids: readonly BookLevel[],
  asks: readonly BookLevel[],
  deltas: readonly BookChangesEvent[],
): { bids: BookLevel[]; asks: BookLevel[] } {
  const b = new Map(bids.map((l) => [l.price, l.size]));
  const a = new Map(asks.map((l) => [l.price, l.size]));
  for (const d of deltas) {
    for (const c of d.changes) {
      const side = c.side === "buy" ? b : a;
      if (c.size === 0n) side.delete(c.price);
      else side.set(c.price, c.size);
    }
  }
  const levels = (m: Map<bigint, bigint>, desc: boolean) =>
    [...m.entries()]
      .sort(([x], [y]) => (x === y ? 0 : x < y !== desc ? -1 : 1))
      .map(([price, size]) => ({ price, size }));
  return { bids: levels(b, true), asks: levels(a, false) };
}
