import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bookWithout, type OwnLevel } from "../../../src/book/net-book.js";
import { type BookView, OrderBook } from "../../../src/book/order-book.js";
import type { BookSide, LevelsView } from "../../../src/book/price-levels.js";
import { copyWithout } from "./copy-without.js";

/*
 * The overlay against the oracle: the copying algorithm bookWithout used before (kept verbatim
 * in copy-without.ts). Random books (bids on ticks 0–19, asks on 10–29, so some are crossed) and up to 10 random
 * own orders on both sides: at a level or at a price with no level (ticks −2…31), sizes equal to
 * their level, larger, smaller, unrelated, zero or negative, several at one price. Every query of
 * BookView and LevelsView is compared at every price and rank, then again after the underlying book
 * changed (the overlay reads it live).
 */

const price = (tick: number) => 400_000 + tick * 1_000;
const PRICES = Array.from({ length: 36 }, (_, i) => price(i - 3));

const sizeArb = fc.bigInt({ min: 1n, max: 100n });
const levelsArb = (min: number, max: number) =>
  fc.uniqueArray(fc.record({ tick: fc.integer({ min, max }), size: sizeArb }), {
    selector: (l) => l.tick,
    maxLength: max - min + 1,
  });
const ownArb = fc.record({
  buy: fc.boolean(),
  tick: fc.integer({ min: -2, max: 31 }),
  // How the size relates to the level at that price (when there is one).
  mode: fc.constantFrom("exact", "exact", "more", "less", "any", "zero", "negative"),
  v: sizeArb,
});
const changeArb = fc.record({
  bid: fc.boolean(),
  tick: fc.integer({ min: -2, max: 31 }),
  size: fc.bigInt({ min: 0n, max: 100n }),
});

type OwnSpec = { buy: boolean; tick: number; mode: string; v: bigint };

function ownOrder(book: OrderBook, s: OwnSpec): OwnLevel {
  const p = price(s.tick);
  const level = book.depthAt(s.buy ? "bid" : "ask", p);
  const size =
    s.mode === "exact" && level > 0n
      ? level
      : s.mode === "more"
        ? level + s.v
        : s.mode === "less" && level > s.v
          ? level - s.v
          : s.mode === "zero"
            ? 0n
            : s.mode === "negative"
              ? -s.v
              : s.v;
  return { side: s.buy ? "buy" : "sell", priceMicro: p, sizeMicro: size };
}

const RANKS = [-1, 0, 1, 2, 3, 5, 8, 13, 19, 20, 21, 25, 40];
const COUNTS = [0, 1, 2, 3, 7, 20, 50, Number.POSITIVE_INFINITY];

function sameLevels(net: LevelsView, ref: LevelsView): void {
  expect(net.side).toBe(ref.side);
  expect(net.length).toBe(ref.length);
  expect(net.bestPrice()).toBe(ref.bestPrice());
  expect(net.bestSize()).toBe(ref.bestSize());
  for (const r of [...RANKS, ref.length - 1, ref.length]) expect(net.at(r)).toEqual(ref.at(r));
  for (const n of COUNTS) expect(net.top(n)).toEqual(ref.top(n));
  // Iteration by rank, as a reader walking the side does.
  const walked = [];
  for (let i = 0; i < net.length; i++) walked.push(net.at(i));
  expect(walked).toEqual(ref.top(ref.length));
  for (const p of PRICES) {
    expect(net.sizeAt(p)).toBe(ref.sizeAt(p));
    expect(net.sizeBetterThan(p)).toBe(ref.sizeBetterThan(p));
    expect(net.sizeThrough(p)).toBe(ref.sizeThrough(p));
  }
  expect(net.equals(ref)).toBe(true);
  expect(ref.equals(net)).toBe(true);
}

function sameBook(net: BookView, ref: OrderBook): void {
  expect(net.tokenId).toBe(ref.tokenId);
  sameLevels(net.bids, ref.bids);
  sameLevels(net.asks, ref.asks);
  expect(net.bestBid()).toEqual(ref.bestBid());
  expect(net.bestAsk()).toEqual(ref.bestAsk());
  expect(net.isCrossed()).toBe(ref.isCrossed());
  expect(net.spread()).toBe(ref.spread());
  expect(net.mid()?.toString()).toBe(ref.mid()?.toString());
  expect(net.microprice()?.toString()).toBe(ref.microprice()?.toString());
  for (const side of ["bid", "ask"] as BookSide[]) {
    for (const p of PRICES) {
      expect(net.depthAt(side, p)).toBe(ref.depthAt(side, p));
      expect(net.depthThrough(side, p)).toBe(ref.depthThrough(side, p));
      expect(net.sizeAhead(side, p)).toEqual(ref.sizeAhead(side, p));
    }
    for (const n of COUNTS) expect(net.top(side, n)).toEqual(ref.top(side, n));
  }
  expect(net.toWire()).toEqual(ref.toWire());
  for (const d of [0, 1, 3, 100]) expect(net.toWire(d)).toEqual(ref.toWire(d));
  expect(net.equals(ref)).toBe(true);
  expect(ref.equals(net)).toBe(true);
  // One level more on either side breaks equality both ways.
  for (const side of ["bid", "ask"] as BookSide[]) {
    const other = copyWithout(ref, []);
    other.apply(side, price(40), 1n);
    expect(net.equals(other)).toBe(false);
    expect(other.equals(net)).toBe(false);
  }
}

describe("bookWithout property: the overlay answers as the old copy", () => {
  it("every BookView and LevelsView query equals the copying oracle's, before and after the book changes", () => {
    fc.assert(
      fc.property(
        levelsArb(0, 19),
        levelsArb(10, 29),
        fc.array(ownArb, { maxLength: 10 }),
        fc.array(changeArb, { maxLength: 4 }),
        (bids, asks, specs, changes) => {
          const book = new OrderBook("t");
          for (const l of bids) book.apply("bid", price(l.tick), l.size);
          for (const l of asks) book.apply("ask", price(l.tick), l.size);
          const own = specs.map((s) => ownOrder(book, s));
          const before = JSON.stringify(book.toWire());
          const net = bookWithout(book, own);
          if (own.length === 0) expect(net).toBe(book);
          sameBook(net, copyWithout(book, own));
          expect(JSON.stringify(book.toWire())).toBe(before); // the input is untouched
          for (const c of changes) book.apply(c.bid ? "bid" : "ask", price(c.tick), c.size);
          sameBook(net, copyWithout(book, own));
        },
      ),
      { numRuns: 300 },
    );
  });
});
