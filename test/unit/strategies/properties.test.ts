import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BookStatus } from "../../../src/book/book-state.js";
import { microToString } from "../../../src/book/micro.js";
import { OrderBook } from "../../../src/book/order-book.js";
import type { DesiredQuote } from "../../../src/core/trading.js";
import {
  type AvellanedaStoikovParams,
  avellanedaStoikov,
  avellanedaStoikovModel,
  timeToHorizonSeconds,
} from "../../../strategies/avellaneda-stoikov.js";
import { bands } from "../../../strategies/bands.js";
import { type GlftParams, glft, glftCoefficients, glftDepths } from "../../../strategies/glft.js";
import { gridDown, gridUp, inventoryLots } from "../../../strategies/quoting.js";
import type { Strategy, StrategyContext } from "../../../strategies/types.js";
import { context, M, market, NOW } from "./helpers.js";

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

const ctxArb = fc
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

const sizeArb = fc.integer({ min: 1, max: 100_000_000 }).map((n) => microToString(n));

const bandsArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 999_999 }), { minLength: 1, maxLength: 4 })
  .chain((margins) =>
    fc.record({
      reference: fc.constantFrom("mid", "microprice"),
      bands: fc.tuple(
        ...[...margins]
          .sort((a, b) => a - b)
          .map((m) => sizeArb.map((size) => ({ margin: microToString(m), size }))),
      ),
    }),
  );

const asArb = fc.record(
  {
    gamma: fc.double({ min: 0.01, max: 100, noNaN: true }),
    k: fc.double({ min: 0.1, max: 1_000, noNaN: true }),
    orderSize: sizeArb,
    sigma: fc.double({ min: 0, max: 0.05, noNaN: true }),
    horizonSeconds: fc.double({ min: 1, max: 1e7, noNaN: true }),
    variant: fc.constantFrom("inventory", "symmetric"),
  },
  { requiredKeys: ["gamma", "k", "orderSize"] },
);

const glftArb = fc
  .record({
    gamma: fc.double({ min: 0.01, max: 100, noNaN: true }),
    k: fc.double({ min: 0.1, max: 1_000, noNaN: true }),
    A: fc.double({ min: 0.001, max: 100, noNaN: true }),
    extra: fc.double({ min: 0, max: 2_000, noNaN: true }),
    orderSize: sizeArb,
  })
  .map(({ extra, ...p }) => ({ ...p, maxInventory: 1 + extra }));

/** The invariants every strategy's output must satisfy on a quotable context. */
function checkQuotes(ctx: StrategyContext, quotes: DesiredQuote[]): void {
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
  expect(new Set(bids.map((q) => q.level)).size).toBe(bids.length);
  expect(new Set(asks.map((q) => q.level)).size).toBe(asks.length);
}

/** Variants of a context that carry no usable data. */
function unusable(ctx: StrategyContext, which: number): StrategyContext {
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

const cases: [string, Strategy<unknown>, fc.Arbitrary<unknown>][] = [
  ["bands", bands as Strategy<unknown>, bandsArb],
  ["avellaneda-stoikov", avellanedaStoikov as Strategy<unknown>, asArb],
  ["glft", glft as Strategy<unknown>, glftArb],
];

describe.each(cases)("%s: properties", (_, strategy, paramsArb) => {
  it("every quote is on tick, inside [tick, 1 − tick], not crossing, bids < asks, sizes ≥ minimum; deterministic", () => {
    fc.assert(
      fc.property(ctxArb, paramsArb, (ctx, raw) => {
        const params = strategy.parseParams(raw);
        const quotes = strategy.quote(ctx, params);
        checkQuotes(ctx, quotes);
        expect(strategy.quote(ctx, params)).toEqual(quotes);
      }),
      { numRuns: 2_000 },
    );
  });

  it("an empty, one-sided, stale, resyncing, unquotable or paused book yields []", () => {
    fc.assert(
      fc.property(ctxArb, paramsArb, fc.integer({ min: 0, max: 5 }), (ctx, raw, which) => {
        expect(strategy.quote(unusable(ctx, which), strategy.parseParams(raw))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});

describe.each(cases.slice(1))("%s: inventory skew is monotone", (_, strategy, paramsArb) => {
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
      { numRuns: 1_000 },
    );
  });
});

/** A model's own bid and ask in micro-units (floats, before the grid and the bounds); undefined when it has none. */
type ModelPrices = (ctx: StrategyContext, p: never) => { bid: number; ask: number } | undefined;

const asPrices: ModelPrices = (ctx, raw) => {
  const p = raw as AvellanedaStoikovParams;
  const mid = ctx.book.mid();
  const sigma = p.sigma ?? ctx.volatility;
  const tau = timeToHorizonSeconds(ctx, p.horizonSeconds);
  if (mid === undefined || sigma === undefined || tau === undefined) return undefined;
  const s = mid.toNumber();
  const q = inventoryLots(ctx.inventory, p.orderSizeMicro);
  const m = avellanedaStoikovModel({ mid: s, q, gamma: p.gamma, k: p.k, sigma, tau });
  const centre = p.variant === "symmetric" ? s : m.reservation;
  return { bid: (centre - m.spread / 2) * 1_000_000, ask: (centre + m.spread / 2) * 1_000_000 };
};

const glftPrices: ModelPrices = (ctx, raw) => {
  const p = raw as GlftParams;
  const mid = ctx.book.mid();
  const sigma = p.sigma ?? ctx.volatility;
  if (mid === undefined || sigma === undefined) return undefined;
  const s = mid.toNumber();
  const d = glftDepths(
    glftCoefficients(p.gamma, p.k, p.A, 1),
    sigma,
    1,
    inventoryLots(ctx.inventory, p.orderSizeMicro),
  );
  return { bid: (s - d.bid) * 1_000_000, ask: (s + d.ask) * 1_000_000 };
};

const models: [string, Strategy<unknown>, fc.Arbitrary<unknown>, ModelPrices][] = [
  ["avellaneda-stoikov", avellanedaStoikov as Strategy<unknown>, asArb, asPrices],
  ["glft", glft as Strategy<unknown>, glftArb, glftPrices],
];

describe.each(models)("%s: never a worse price than the model's own", (_, strategy, paramsArb, prices) => {
  // Clamping toward the touch only improves a price (a bid lowered, an ask raised); clamping a bid
  // below the tick UP to the tick (or an ask above 1 − tick down) would buy above / sell below the
  // price the model chose, so such a side must be skipped instead.
  it("a bid at or below the model's bid on the grid, an ask at or above the model's ask", () => {
    fc.assert(
      fc.property(ctxArb, paramsArb, (ctx, raw) => {
        const p = strategy.parseParams(raw);
        const model = prices(ctx, p as never);
        const tick = ctx.market.tickMicro;
        for (const q of strategy.quote(ctx, p)) {
          if (model === undefined) throw new Error("a quote without model prices");
          if (q.side === "buy") expect(q.priceMicro).toBeLessThanOrEqual(gridDown(model.bid, tick) as number);
          else expect(q.priceMicro).toBeGreaterThanOrEqual(gridUp(model.ask, tick) as number);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
