import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BookStatus } from "../../../../src/book/book-state.js";
import { microToString } from "../../../../src/book/micro.js";
import { OrderBook } from "../../../../src/book/order-book.js";
import type { DesiredQuote } from "../../../../src/core/trading.js";
import { ownExtremes, priceFault } from "../../../../src/risk/quote-prices.js";
import type { Strategy, StrategyContext } from "../../../../strategies/types.js";
import { context, M, market, NOW } from "../helpers.js";

/*
 * The shared-rules property tests every strategy passes (strategies/README.md, "Rules every
 * strategy follows"): give `strategyProperties` a strategy and an arbitrary of its raw parameters.
 */

// Ticks include 0.03 and 0.07, which do not divide 1, and the exchange's finest, 0.000001.
const tickArb = fc.constantFrom(1, 100, 1_000, 5_000, 10_000, 25_000, 30_000, 70_000);

/** A two-sided book, on or off the tick grid (off-grid books stress the clamps). */
const bookArb = fc
  .record({
    bid: fc.integer({ min: 1, max: 999_998 }),
    gap: fc.integer({ min: 1, max: 200_000 }),
    bidSize: fc.bigInt({ min: 1n, max: 10_000n * M }),
    askSize: fc.bigInt({ min: 1n, max: 10_000n * M }),
  })
  .map(({ bid, gap, bidSize, askSize }) => {
    const b = new OrderBook("101");
    b.apply("bid", bid, bidSize);
    b.apply("ask", Math.min(1_000_000, bid + gap), askSize);
    return b;
  });

/** A quotable context: any tick, minimum size, inventory, σ (or none) and close (or none). */
export const ctxArb = fc
  .record({
    book: bookArb,
    tick: tickArb,
    minSize: fc.bigInt({ min: 0n, max: 50n * M }),
    inventory: fc.bigInt({ min: -5_000n * M, max: 5_000n * M }),
    volatility: fc.option(fc.double({ min: 0, max: 0.05, noNaN: true }), { nil: undefined }),
    closeIn: fc.option(fc.integer({ min: -86_400_000, max: 30 * 86_400_000 }), { nil: undefined }),
  })
  .map(
    (c): StrategyContext =>
      context(c.book, {
        market: market({
          tickMicro: c.tick,
          minSizeMicro: c.minSize,
          closesAtMs: c.closeIn === undefined ? undefined : NOW + c.closeIn,
        }),
        inventory: c.inventory,
        volatility: c.volatility,
      }),
  );

/** A size as a decimal string, 0.000001 to 100 shares. */
export const sizeArb = fc.integer({ min: 1, max: 100_000_000 }).map((n) => microToString(n));

/** The invariants every strategy's output must satisfy on a quotable context. */
export function checkQuotes(ctx: StrategyContext, quotes: DesiredQuote[]): void {
  const tick = ctx.market.tickMicro;
  const bestBid = ctx.book.bestBid()?.price as number;
  const bestAsk = ctx.book.bestAsk()?.price as number;
  const bids = quotes.filter((q) => q.side === "buy");
  const asks = quotes.filter((q) => q.side === "sell");
  for (const q of quotes) {
    expect(Number.isSafeInteger(q.priceMicro)).toBe(true);
    expect(q.priceMicro % tick).toBe(0);
    expect(q.priceMicro).toBeGreaterThanOrEqual(tick);
    expect(q.priceMicro).toBeLessThanOrEqual(1_000_000 - tick);
    expect(typeof q.sizeMicro).toBe("bigint");
    expect(q.sizeMicro >= ctx.market.minSizeMicro && q.sizeMicro > 0n).toBe(true);
    expect(Number.isInteger(q.level) && q.level >= 0).toBe(true);
  }
  for (const b of bids) expect(b.priceMicro).toBeLessThan(bestAsk);
  for (const a of asks) expect(a.priceMicro).toBeGreaterThan(bestBid);
  const maxBid = Math.max(...bids.map((q) => q.priceMicro));
  const minAsk = Math.min(...asks.map((q) => q.priceMicro));
  if (bids.length > 0 && asks.length > 0) expect(maxBid).toBeLessThan(minAsk);
  // The engine enforces the same rules for every strategy (the risk guard, quote-prices.ts): a
  // shipped strategy never trips them, so they never change what it sends.
  const touch = { bestBidMicro: bestBid, bestAskMicro: bestAsk };
  for (const q of quotes) expect(priceFault(q, tick, touch)).toBeUndefined();
  if (bids.length > 0) {
    const own = ownExtremes(quotes, tick, touch);
    expect(own.maxBid).toBeLessThan(own.minAsk);
  }
  expect(new Set(bids.map((q) => q.level)).size).toBe(bids.length);
  expect(new Set(asks.map((q) => q.level)).size).toBe(asks.length);
  // Bids by level, then asks by level.
  expect(quotes).toEqual([...bids, ...asks]);
  for (const side of [bids, asks]) {
    side.forEach((q, i) => {
      if (i > 0) expect(q.level).toBeGreaterThan((side[i - 1] as DesiredQuote).level);
    });
  }
}

/** Variants of a context that carry no usable data. */
export function unusable(ctx: StrategyContext, which: number): StrategyContext {
  const states: BookStatus[] = ["stale", "resyncing"];
  switch (which) {
    case 0:
      return { ...ctx, book: new OrderBook("101") };
    case 1: {
      const oneSided = new OrderBook("101");
      const best = ctx.book.bestBid();
      if (best !== undefined) oneSided.apply("bid", best.price, best.size);
      return { ...ctx, book: oneSided };
    }
    case 2:
      return { ...ctx, quotable: false };
    case 3:
      return { ...ctx, market: { ...ctx.market, status: "PAUSED" } };
    default:
      return { ...ctx, bookState: states[which % 2] as BookStatus };
  }
}

/** Runs per property; the shipped strategies use the defaults. */
export interface PropertyRuns {
  readonly rules?: number;
  readonly noData?: number;
}

/**
 * Registers the shared-rules properties of `strategy` (a `describe` block named after it):
 * every output on tick, inside [tick, 1 − tick], never through the touch, own bids below own asks,
 * sizes at least the minimum, one quote per side and level, bids then asks by level, the same
 * answer twice; and [] from an empty, one-sided, stale, resyncing, unquotable or paused book.
 * @example strategyProperties(skewedMid as Strategy<unknown>, fc.record({ halfSpread: …, orderSize: sizeArb }))
 */
export function strategyProperties(
  strategy: Strategy<unknown>,
  paramsArb: fc.Arbitrary<unknown>,
  runs: PropertyRuns = {},
): void {
  describe(`${strategy.name}: properties`, () => {
    it("every quote is on tick, inside [tick, 1 − tick], not crossing, bids < asks, sizes ≥ minimum; deterministic", () => {
      fc.assert(
        fc.property(ctxArb, paramsArb, (ctx, raw) => {
          const params = strategy.parseParams(raw);
          const quotes = strategy.quote(ctx, params);
          checkQuotes(ctx, quotes);
          expect(strategy.quote(ctx, params)).toEqual(quotes);
        }),
        { numRuns: runs.rules ?? 2_000 },
      );
    });

    it("an empty, one-sided, stale, resyncing, unquotable or paused book yields []", () => {
      fc.assert(
        fc.property(ctxArb, paramsArb, fc.integer({ min: 0, max: 5 }), (ctx, raw, which) => {
          expect(strategy.quote(unusable(ctx, which), strategy.parseParams(raw))).toEqual([]);
        }),
        { numRuns: runs.noData ?? 500 },
      );
    });
  });
}

/**
 * Registers the inventory-skew property of a strategy that skews: more inventory never raises the
 * bid or the ask.
 */
export function inventorySkewProperty(
  strategy: Strategy<unknown>,
  paramsArb: fc.Arbitrary<unknown>,
  numRuns = 1_000,
): void {
  describe(`${strategy.name}: inventory skew is monotone`, () => {
    it("more inventory never raises the bid or the ask", () => {
      fc.assert(
        fc.property(ctxArb, paramsArb, fc.bigInt({ min: 1n, max: 1_000n * M }), (ctx, raw, more) => {
          const p = strategy.parseParams(raw);
          const lo = strategy.quote(ctx, p);
          const hi = strategy.quote({ ...ctx, inventory: ctx.inventory + more }, p);
          for (const side of ["buy", "sell"] as const) {
            const a = lo.find((q) => q.side === side);
            const b = hi.find((q) => q.side === side);
            if (a !== undefined && b !== undefined) expect(b.priceMicro).toBeLessThanOrEqual(a.priceMicro);
          }
        }),
        { numRuns },
      );
    });
  });
}
