import { describe, expect, it } from "vitest";
import { LevelBuffer } from "../../../src/book/level-buffer.js";
import { OrderBook } from "../../../src/book/order-book.js";
import type { Level, LevelsView } from "../../../src/book/price-levels.js";

const M = 1_000_000n;

/** bids 0.50×10, 0.49×20, 0.45×5 — asks 0.52×4, 0.53×6, 0.60×100 (built out of order on purpose). */
function sample(): OrderBook {
  const b = new OrderBook("7");
  b.apply("bid", 450_000, 5n * M);
  b.apply("ask", 600_000, 100n * M);
  b.apply("bid", 500_000, 10n * M);
  b.apply("ask", 520_000, 4n * M);
  b.apply("bid", 490_000, 20n * M);
  b.apply("ask", 530_000, 6n * M);
  return b;
}

describe("OrderBook queries on a hand-built book", () => {
  const b = sample();

  it("best bid/ask, spread, crossed", () => {
    expect(b.bestBid()).toEqual({ price: 500_000, size: 10n * M });
    expect(b.bestAsk()).toEqual({ price: 520_000, size: 4n * M });
    expect(b.spread()).toBe(20_000);
    expect(b.isCrossed()).toBe(false);
    expect(b.bids.length).toBe(3);
    expect(b.asks.length).toBe(3);
  });

  it("mid and microprice are exact", () => {
    expect(b.mid()?.toFixed()).toBe("0.51");
    // (0.50 × 4 + 0.52 × 10) / 14 = 7.2 / 14 = 0.514285714…
    const mp = b.microprice();
    expect(mp?.toFixed(12)).toBe("0.514285714286");
    expect(mp?.times(14).toFixed()).toBe("7.2");
  });

  it("depth at a price", () => {
    expect(b.depthAt("bid", 490_000)).toBe(20n * M);
    expect(b.depthAt("bid", 480_000)).toBe(0n);
    expect(b.depthAt("ask", 600_000)).toBe(100n * M);
    expect(b.depthAt("ask", 500_000)).toBe(0n);
  });

  it("depth through a price: at-or-better levels", () => {
    expect(b.depthThrough("bid", 500_000)).toBe(10n * M);
    expect(b.depthThrough("bid", 490_000)).toBe(30n * M);
    expect(b.depthThrough("bid", 470_000)).toBe(30n * M);
    expect(b.depthThrough("bid", 100_000)).toBe(35n * M);
    expect(b.depthThrough("bid", 510_000)).toBe(0n);
    expect(b.depthThrough("ask", 520_000)).toBe(4n * M);
    expect(b.depthThrough("ask", 530_000)).toBe(10n * M);
    expect(b.depthThrough("ask", 590_000)).toBe(10n * M);
    expect(b.depthThrough("ask", 1_000_000)).toBe(110n * M);
    expect(b.depthThrough("ask", 510_000)).toBe(0n);
  });

  it("size ahead of a new order: strictly better levels, then the level itself", () => {
    expect(b.sizeAhead("bid", 490_000)).toEqual({ better: 10n * M, atPrice: 20n * M });
    expect(b.sizeAhead("bid", 495_000)).toEqual({ better: 10n * M, atPrice: 0n });
    expect(b.sizeAhead("bid", 510_000)).toEqual({ better: 0n, atPrice: 0n });
    expect(b.sizeAhead("ask", 530_000)).toEqual({ better: 4n * M, atPrice: 6n * M });
    expect(b.sizeAhead("ask", 600_000)).toEqual({ better: 10n * M, atPrice: 100n * M });
  });

  it("top-N levels best first, and the wire view as decimal strings", () => {
    expect(b.top("bid", 2)).toEqual([
      { price: 500_000, size: 10n * M },
      { price: 490_000, size: 20n * M },
    ]);
    expect(b.top("ask", 10).map((l) => l.price)).toEqual([520_000, 530_000, 600_000]);
    expect(b.top("ask", 0)).toEqual([]);
    expect(b.toWire(2)).toEqual({
      bids: [
        { price: "0.5", size: "10" },
        { price: "0.49", size: "20" },
      ],
      asks: [
        { price: "0.52", size: "4" },
        { price: "0.53", size: "6" },
      ],
    });
    expect(b.bids.at(2)).toEqual({ price: 450_000, size: 5n * M });
    expect(b.bids.at(3)).toBeUndefined();
  });
});

describe("OrderBook updates", () => {
  it("size replaces a level's total, 0 removes it, removing a missing level is a no-op", () => {
    const b = sample();
    b.apply("bid", 500_000, 3n * M);
    expect(b.bestBid()).toEqual({ price: 500_000, size: 3n * M });
    b.apply("bid", 500_000, 0n);
    expect(b.bestBid()?.price).toBe(490_000);
    b.apply("ask", 555_000, 0n);
    expect(b.asks.length).toBe(3);
    b.apply("ask", 510_000, 1n);
    expect(b.bestAsk()).toEqual({ price: 510_000, size: 1n });
  });

  it("detects crossed and locked books; an empty side is never crossed", () => {
    const b = sample();
    b.apply("bid", 520_000, M); // locked: bid = ask
    expect(b.isCrossed()).toBe(true);
    expect(b.spread()).toBe(0);
    b.apply("bid", 520_000, 0n);
    b.apply("ask", 480_000, M); // crossed
    expect(b.isCrossed()).toBe(true);
    expect(b.spread()).toBe(-20_000);
    const oneSided = new OrderBook("8");
    oneSided.apply("bid", 500_000, M);
    expect(oneSided.isCrossed()).toBe(false);
    expect(oneSided.mid()).toBeUndefined();
    expect(oneSided.microprice()).toBeUndefined();
    expect(oneSided.spread()).toBeUndefined();
    expect(oneSided.bestAsk()).toBeUndefined();
  });

  it("replace sorts unsorted input, skips zero sizes and keeps the last of duplicate prices", () => {
    const buf = new LevelBuffer();
    buf.push(1, 400_000, 2n);
    buf.push(1, 500_000, 0n);
    buf.push(1, 450_000, 3n);
    buf.push(1, 400_000, 7n);
    buf.firstAsk = buf.length;
    buf.push(0, 700_000, 1n);
    buf.push(0, 600_000, 9n);
    const b = sample();
    b.replace(buf);
    expect(b.top("bid", 9)).toEqual([
      { price: 450_000, size: 3n },
      { price: 400_000, size: 7n },
    ]);
    expect(b.top("ask", 9)).toEqual([
      { price: 600_000, size: 9n },
      { price: 700_000, size: 1n },
    ]);
  });

  it("applyChanges applies in wire order (the later change to a level wins) and equals compares exactly", () => {
    const buf = new LevelBuffer();
    buf.push(1, 500_000, 1n);
    buf.push(0, 520_000, 0n);
    buf.push(1, 500_000, 2n);
    const b = sample();
    b.applyChanges(buf);
    expect(b.depthAt("bid", 500_000)).toBe(2n);
    expect(b.bestAsk()?.price).toBe(530_000);
    const c = sample();
    expect(b.equals(c)).toBe(false);
    c.apply("bid", 500_000, 2n);
    c.apply("ask", 520_000, 0n);
    expect(b.equals(c)).toBe(true);
    // Any LevelsView compares by content, not only another PriceLevels.
    const view = (at: (r: number) => Level | undefined): LevelsView => ({
      side: "bid",
      length: c.bids.length,
      bestPrice: () => c.bids.bestPrice(),
      bestSize: () => c.bids.bestSize(),
      at,
      sizeAt: (p) => c.bids.sizeAt(p),
      sizeBetterThan: (p) => c.bids.sizeBetterThan(p),
      sizeThrough: (p) => c.bids.sizeThrough(p),
      top: (n) => c.bids.top(n),
      equals: () => false,
    });
    expect(b.bids.equals(view((r) => c.bids.at(r)))).toBe(true);
    expect(b.bids.equals(view(() => ({ price: 1, size: 1n })))).toBe(false);
    c.clear();
    expect(c.bids.length + c.asks.length).toBe(0);
  });
});
