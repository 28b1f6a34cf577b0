import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExchangeBooks, type LevelChange } from "../../../src/backtest/sim/exchange-books.js";
import type { BookEvent } from "../../../src/book/events.js";
import { OrderBook } from "../../../src/book/order-book.js";
import type { BookSide } from "../../../src/book/price-levels.js";

/*
 * ExchangeBooks turns each frame into level changes in one fixed order (decreases best-first, then
 * increases best-first, a level listed twice taking its last size), with delta frames of up to 64
 * entries on an allocation-light path. Random frames — duplicates, removals, frames past 64
 * entries, snapshots in between — give the same changes as the rule written out plainly here.
 */

const T = "5";

interface Ref {
  side: BookSide;
  price: number;
  before: bigint;
  after: bigint;
}

function reference(book: OrderBook, e: BookEvent): string[] {
  if (e.type === "book_snapshot_failed") return [];
  const target = new Map<string, { side: BookSide; price: number; after: bigint }>();
  type Wire = { side?: string; price: string; size: string };
  const entries =
    e.type === "book_delta"
      ? (e.changes as Wire[]).map((c) => ({ ...c, side: (c.side === "buy" ? "bid" : "ask") as BookSide }))
      : [
          ...(e.bids as Wire[]).map((l) => ({ ...l, side: "bid" as BookSide })),
          ...(e.asks as Wire[]).map((l) => ({ ...l, side: "ask" as BookSide })),
        ];
  if (e.type !== "book_delta") {
    for (const side of ["bid", "ask"] as const) {
      for (const l of book.top(side, book.side(side).length))
        target.set(`${side}${l.price}`, { side, price: l.price, after: 0n });
    }
  }
  for (const x of entries) {
    const price = Math.round(Number(x.price) * 1e6);
    target.set(`${x.side}${price}`, {
      side: x.side,
      price,
      after: BigInt(Math.round(Number(x.size) * 100)) * 10_000n,
    });
  }
  const down: Ref[] = [];
  const up: Ref[] = [];
  for (const t of target.values()) {
    const before = book.depthAt(t.side, t.price);
    if (before !== t.after) (t.after < before ? down : up).push({ ...t, before });
  }
  const order = (a: Ref, b: Ref) =>
    a.side !== b.side
      ? a.side === "bid"
        ? -1
        : 1
      : a.side === "bid"
        ? b.price - a.price
        : a.price - b.price;
  const out: string[] = [];
  for (const c of [...down.sort(order), ...up.sort(order)]) {
    const touch = book.side(c.side).bestPrice() === c.price;
    book.apply(c.side, c.price, c.after);
    out.push(`${c.side} ${c.price} ${c.before}->${c.after}${touch ? " touch" : ""}`);
  }
  return out;
}

const entry = fc.record({
  bid: fc.boolean(),
  tick: fc.integer({ min: 1, max: 30 }),
  cents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500 })),
});
const frame = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.array(entry, { minLength: 1, maxLength: 12 }).map((es) => ({ snapshot: false, es })),
  },
  {
    weight: 1,
    arbitrary: fc.array(entry, { minLength: 65, maxLength: 90 }).map((es) => ({ snapshot: false, es })),
  },
  { weight: 1, arbitrary: fc.array(entry, { maxLength: 20 }).map((es) => ({ snapshot: true, es })) },
);

describe("ExchangeBooks: the fast path for delta frames", () => {
  it("gives the changes of the plain rule, in its order, for any sequence of frames", () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 30 }), (frames) => {
        const books = new ExchangeBooks();
        const ref = new OrderBook(T);
        frames.forEach((f, i) => {
          // A bid at tick p is p/100 below 0.5, an ask p/100 above: the book never crosses.
          const lvl = (e: { bid: boolean; tick: number; cents: number }) => ({
            price: (e.bid ? (50 - e.tick / 2) / 100 : (50 + e.tick / 2) / 100).toFixed(3),
            size: (e.cents / 100).toFixed(2),
          });
          const e: BookEvent = f.snapshot
            ? {
                type: "book_snapshot",
                tokenId: T,
                seq: i + 1,
                bids: f.es.filter((x) => x.bid && x.cents > 0).map(lvl),
                asks: f.es.filter((x) => !x.bid && x.cents > 0).map(lvl),
              }
            : {
                type: "book_delta",
                tokenId: T,
                seq: i + 1,
                prevSeq: i,
                changes: f.es.map((x) => ({ side: x.bid ? "buy" : "sell", ...lvl(x) })),
              };
          const got: string[] = [];
          books.apply(e, (c: LevelChange) =>
            got.push(`${c.side} ${c.price} ${c.before}->${c.after}${c.wasTouch ? " touch" : ""}`),
          );
          expect(got).toEqual(reference(ref, e));
        });
        expect(books.book(T).equals(ref)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
