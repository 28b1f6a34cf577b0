import { describe, expect, it } from "vitest";
import { bookWithout } from "../../../src/book/net-book.js";
import { OrderBook } from "../../../src/book/order-book.js";

/** A book with the other traders at 0.48 / 0.52 and our own quotes inside, at 0.49 / 0.51. */
function book(): OrderBook {
  const b = new OrderBook("t");
  b.apply("bid", 480_000, 100_000_000n);
  b.apply("bid", 490_000, 10_000_000n); // ours
  b.apply("ask", 510_000, 15_000_000n); // 10 ours + 5 someone else's
  b.apply("ask", 520_000, 100_000_000n);
  return b;
}

describe("bookWithout", () => {
  it("takes our resting sizes out of their levels: the market's own mid and microprice remain", () => {
    const raw = book();
    expect(raw.mid()?.toFixed()).toBe("0.5");
    const net = bookWithout(raw, [
      { side: "buy", priceMicro: 490_000, sizeMicro: 10_000_000n },
      { side: "sell", priceMicro: 510_000, sizeMicro: 10_000_000n },
    ]);
    // Our bid was the whole 0.49 level: it is gone; 5 of the 15 at 0.51 are someone else's.
    expect(net.bestBid()).toEqual({ price: 480_000, size: 100_000_000n });
    expect(net.bestAsk()).toEqual({ price: 510_000, size: 5_000_000n });
    expect(net.mid()?.toFixed()).toBe("0.495");
    // microprice = (bid × askSize + ask × bidSize) / (bidSize + askSize) = (0.48×5 + 0.51×100) / 105
    expect(net.microprice()?.toFixed(6)).toBe("0.508571");
    expect(net.depthAt("ask", 520_000)).toBe(100_000_000n);
    // The input is untouched.
    expect(raw.bestBid()).toEqual({ price: 490_000, size: 10_000_000n });
  });

  it("never takes a level below zero, and returns the book itself when we rest nothing", () => {
    const raw = book();
    const net = bookWithout(raw, [{ side: "buy", priceMicro: 490_000, sizeMicro: 25_000_000n }]);
    expect(net.depthAt("bid", 490_000)).toBe(0n);
    expect(net.bids.length).toBe(1);
    expect(bookWithout(raw, [])).toBe(raw);
  });
});
