import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { microToString } from "../../../src/book/micro.js";
import {
  type AvellanedaStoikovParams,
  avellanedaStoikov,
  avellanedaStoikovModel,
  timeToHorizonSeconds,
} from "../../../strategies/avellaneda-stoikov.js";
import { bands } from "../../../strategies/bands.js";
import { type GlftParams, glft, glftCoefficients, glftDepths } from "../../../strategies/glft.js";
import { gridDown, gridUp, inventoryLots } from "../../../strategies/quoting.js";
import { getStrategy, STRATEGY_NAMES } from "../../../strategies/registry.js";
import type { Strategy, StrategyContext } from "../../../strategies/types.js";
import { ctxArb, inventorySkewProperty, sizeArb, strategyProperties } from "./support/properties.js";

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

const cases: [string, Strategy<unknown>, fc.Arbitrary<unknown>][] = [
  ["bands", bands as Strategy<unknown>, bandsArb],
  ["avellaneda-stoikov", avellanedaStoikov as Strategy<unknown>, asArb],
  ["glft", glft as Strategy<unknown>, glftArb],
];

describe("property cases", () => {
  // A strategy added to the registry without cases here would ship without the shared-rules checks.
  it("cover every registered strategy", () => {
    expect(cases.map(([name]) => name)).toEqual([...STRATEGY_NAMES]);
    for (const [name, strategy] of cases) expect(getStrategy(name)).toBe(strategy);
  });
});

for (const [, strategy, paramsArb] of cases) strategyProperties(strategy, paramsArb);
for (const [, strategy, paramsArb] of cases.slice(1)) inventorySkewProperty(strategy, paramsArb);

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
