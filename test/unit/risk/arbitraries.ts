import fc from "fast-check";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { parseRiskConfig, type RiskConfig } from "../../../src/risk/config.js";
import { RiskGuard } from "../../../src/risk/guard.js";
import { q } from "./helpers.js";

/**
 * Generators for the RiskGuard property: configs, quotes (with garbage) and states whose
 * positions are drawn relative to the generated caps, so every regime (free, clipped, reduce-only,
 * blocked, gated) occurs often.
 */

/** Micro-units as an exact decimal string (no float division). */
const dec = (micro: number) =>
  `${Math.floor(micro / 1_000_000)}.${String(micro % 1_000_000).padStart(6, "0")}`;

const shares = (max: number) => fc.integer({ min: 1, max: max * 1_000_000 }).map(dec);

/** Soft as a fraction (20–100%) of hard, so that the reduce-only and the clipping regimes both occur. */
const capArb = (maxShares: number) =>
  fc.record({
    hard: fc.integer({ min: 1, max: maxShares * 1_000_000 }),
    pct: fc.oneof(fc.constant(100), fc.integer({ min: 20, max: 100 })),
  });

/** Any valid config: soft ≤ hard at both levels, any size/notional limits, either oversize policy. */
const configArb = fc
  .record({
    m: capArb(400),
    t: capArb(2000),
    maxSize: shares(300),
    maxNotional: shares(300),
    oversize: fc.constantFrom("clip", "drop"),
  })
  .map(({ m, t, maxSize, maxNotional, oversize }) => {
    const cap = (c: { hard: number; pct: number }) => ({
      soft: dec(Math.max(1, Math.floor((c.hard * c.pct) / 100))),
      hard: dec(c.hard),
    });
    return parseRiskConfig({
      inventory: { perMarket: cap(m), total: cap(t) },
      order: { maxSize, maxNotional, oversize },
    });
  });

const oneIn = (n: number) => fc.integer({ min: 1, max: n }).map((k) => k === 1);

const micro = (maxShares: number) => fc.bigInt({ min: 0n, max: BigInt(maxShares) * 1_000_000n });

/** Mostly plausible quotes, with some garbage: off-band, off-tick, fractional prices, zero and negative sizes. */
const quoteArb = (tick: number): fc.Arbitrary<DesiredQuote> =>
  fc.record({
    side: fc.constantFrom("buy" as const, "sell" as const),
    level: fc.integer({ min: -1, max: 4 }),
    priceMicro: fc.oneof(
      {
        arbitrary: fc.integer({ min: 1, max: Math.floor(1_000_000 / tick) - 1 }).map((k) => k * tick),
        weight: 8,
      },
      {
        arbitrary: fc.constantFrom(0, tick, 1_000_000 - tick, 1_000_000, -tick, 1_000_000 + tick),
        weight: 2,
      },
      { arbitrary: fc.integer({ min: -20_000, max: 1_020_000 }), weight: 1 },
      { arbitrary: fc.double({ min: 0, max: 1_000_000, noNaN: true }), weight: 1 },
    ),
    sizeMicro: fc.oneof(
      { arbitrary: micro(400), weight: 9 },
      { arbitrary: fc.bigInt({ min: -5_000_000n, max: 0n }), weight: 1 },
    ),
  });

/** A whole scenario: config, market, exposure, gates and the desired quotes. */
export const scenarioArb = fc
  .record({
    cfg: configArb,
    tick: fc.constantFrom(1, 100, 1_000, 10_000, 50_000),
    minSize: micro(20),
    exposure: fc.tuple(
      fc.integer({ min: 0, max: 150 }),
      fc.boolean(),
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 120 }),
    ),
    status: fc.oneof({ arbitrary: fc.constant("OPEN"), weight: 18 }, fc.constantFrom("PAUSED", "CLOSED")),
    book: fc.oneof({ arbitrary: fc.constant("synced"), weight: 18 }, fc.constantFrom("stale", "resyncing")),
    // Shares held, as a percentage of the per-market hard cap; > 100 % never binds.
    heldPct: fc.oneof({ arbitrary: fc.constant(1_000), weight: 3 }, fc.integer({ min: 0, max: 150 })),
    crossed: oneIn(10),
    kill: oneIn(20),
    frozen: oneIn(20),
    halt: oneIn(20),
  })
  .map(({ exposure: [pPct, short, mPct, tPct], heldPct, ...s }) => {
    const inv = s.cfg.inventory;
    const a = (inv.perMarket.hardMicro * BigInt(pPct)) / 100n;
    return {
      ...s,
      position: short ? -a : a,
      held: (inv.perMarket.hardMicro * BigInt(heldPct)) / 100n,
      marketOthers: (inv.perMarket.hardMicro * BigInt(mPct)) / 200n,
      totalOthers: (inv.total.hardMicro * BigInt(tPct)) / 100n,
    };
  })
  .chain((s) =>
    fc.record({
      s: fc.constant(s),
      // Mostly as a strategy leaves them (no bid of ours at or above an ask of ours), so that the
      // caps see quotes; the rest as drawn, for own_quotes_crossed.
      desired: fc.oneof(
        { arbitrary: fc.array(quoteArb(s.tick), { maxLength: 10 }).map(uncrossed), weight: 5 },
        { arbitrary: fc.array(quoteArb(s.tick), { maxLength: 10 }), weight: 1 },
      ),
      // Sometimes the best prices of the book the strategy priced from (price_crosses_book).
      touch: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 5 },
        {
          arbitrary: fc
            .record({
              mid: fc.integer({ min: 300_000, max: 700_000 }),
              half: fc.integer({ min: 1, max: 300_000 }),
            })
            .map(({ mid, half }) => ({ bestBidMicro: mid - half, bestAskMicro: mid + half })),
          weight: 1,
        },
      ),
    }),
  );

/** The quotes with bids below 0.5 and asks at or above it (a side flipped where needed): none crosses another. */
function uncrossed(desired: DesiredQuote[]): DesiredQuote[] {
  return desired.map((d) => {
    const side = d.priceMicro < 500_000 ? "buy" : "sell";
    return d.side === side ? d : { ...d, side };
  });
}

/** A guard in the scenario's wallet-wide state (kill switch tripped, platform frozen, error halt). */
export function guardFor(cfg: RiskConfig, s: { kill: boolean; frozen: boolean; halt: boolean }): RiskGuard {
  const g = new RiskGuard(cfg);
  if (s.kill) {
    g.onPnl(0n, 0);
    g.onPnl(-cfg.killSwitch.maxDrawdownMicro - 1n, 0);
  }
  if (s.frozen) g.onPlatformStatus(true);
  if (s.halt) for (let i = 0; i <= cfg.errorRate.maxErrors; i++) g.onOrderError("insufficient_funds", 0);
  return g;
}

/** A quote on a 0.01 grid (0.01–0.99), 1–150 shares, level 0–3, either side (the caps' properties). */
export const gridQuoteArb: fc.Arbitrary<DesiredQuote> = fc
  .record({
    buy: fc.boolean(),
    tick: fc.integer({ min: 1, max: 99 }),
    size: fc.integer({ min: 1, max: 150 }),
    level: fc.integer({ min: 0, max: 3 }),
  })
  .map((x) => q(x.buy ? "buy" : "sell", (x.tick / 100).toFixed(2), x.size, x.level));
