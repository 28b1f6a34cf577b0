import { describe, expect, it } from "vitest";
import { ExchangeBooks, type LevelChange } from "../../../src/backtest/sim/exchange-books.js";
import type { BookEvent } from "../../../src/book/events.js";

const T = "77";
const snap = (bids: [string, string][], asks: [string, string][], seq = 1): BookEvent => ({
  type: "book_snapshot",
  tokenId: T,
  seq,
  bids: bids.map(([price, size]) => ({ price, size })),
  asks: asks.map(([price, size]) => ({ price, size })),
});
const delta = (seq: number, changes: [string, string, string][]): BookEvent => ({
  type: "book_delta",
  tokenId: T,
  seq,
  prevSeq: seq - 1,
  changes: changes.map(([side, price, size]) => ({ side, price, size })),
});

function apply(books: ExchangeBooks, e: BookEvent): string[] {
  const out: string[] = [];
  const ok = books.apply(e, (c: LevelChange) => {
    out.push(`${c.side} ${c.price} ${c.before}->${c.after}${c.wasTouch ? " touch" : ""}`);
  });
  if (!ok) out.push("malformed");
  return out;
}

describe("ExchangeBooks", () => {
  it("applies decreases best-first, then increases best-first, flagging the touch as it stood", () => {
    const books = new ExchangeBooks();
    apply(
      books,
      snap(
        [
          ["0.49", "10"],
          ["0.48", "20"],
          ["0.47", "30"],
        ],
        [
          ["0.51", "5"],
          ["0.52", "6"],
        ],
      ),
    );
    const changes = apply(
      books,
      delta(2, [
        ["buy", "0.47", "40"],
        ["buy", "0.48", "0"],
        ["sell", "0.52", "1"],
        ["buy", "0.49", "0"],
        ["sell", "0.50", "9"],
        ["sell", "0.52", "2"],
      ]),
    );
    expect(changes).toEqual([
      "bid 490000 10000000->0 touch",
      "bid 480000 20000000->0 touch",
      "ask 520000 6000000->2000000",
      "bid 470000 30000000->40000000 touch",
      "ask 500000 0->9000000",
    ]);
    expect(books.book(T).toWire()).toEqual({
      bids: [{ price: "0.47", size: "40" }],
      asks: [
        { price: "0.5", size: "9" },
        { price: "0.51", size: "5" },
        { price: "0.52", size: "2" },
      ],
    });
    expect(books.lastSeq(T)).toBe(2);
  });

  it("turns a snapshot into the level changes between the two books", () => {
    const books = new ExchangeBooks();
    apply(books, snap([["0.49", "10"]], [["0.51", "5"]]));
    expect(apply(books, snap([["0.48", "3"]], [["0.51", "7"]], 9))).toEqual([
      "bid 490000 10000000->0 touch",
      "bid 480000 0->3000000",
      "ask 510000 5000000->7000000 touch",
    ]);
    expect(books.lastSeq(T)).toBe(9);
  });

  it("applies nothing of a malformed frame and counts it", () => {
    const books = new ExchangeBooks();
    apply(books, snap([["0.49", "10"]], []));
    expect(
      apply(
        books,
        delta(2, [
          ["buy", "0.48", "1"],
          ["up", "0.47", "1"],
        ]),
      ),
    ).toEqual(["malformed"]);
    expect(books.malformed).toBe(1);
    expect(books.book(T).toWire().bids).toEqual([{ price: "0.49", size: "10" }]);
  });
});
