import type { DesiredQuote } from "../src/core/trading.js";
import type { StrategyContext } from "./types.js";

/** A price of 1 in micro-units. */
export const ONE_MICRO = 1_000_000;

/** The best bid and ask of a book that may be quoted from, micro-units, bid < ask. */
export interface Touch {
  readonly bid: number;
  readonly ask: number;
}

/**
 * The touch when the context supports a price, else undefined: the engine says the book is
 * quotable, the tracker says `synced`, the market is OPEN, the tick is sane and both sides exist
 * without crossing. Every strategy starts here, so none ever invents a price (no data → no quote).
 * @example const touch = quotableTouch(ctx); if (touch === undefined) return [];
 */
export function quotableTouch(ctx: StrategyContext): Touch | undefined {
  if (!ctx.quotable || ctx.bookState !== "synced" || ctx.market.status !== "OPEN") return undefined;
  const tick = ctx.market.tickMicro;
  if (!Number.isSafeInteger(tick) || tick <= 0 || tick > ONE_MICRO / 2) return undefined;
  const bid = ctx.book.bestBid();
  const ask = ctx.book.bestAsk();
  if (bid === undefined || ask === undefined || bid.price >= ask.price) return undefined;
  return { bid: bid.price, ask: ask.price };
}

// A model price within a billionth of a tick of a grid point is taken to be on it: binary floats
// turn exact results like 0.53 into 529999.99999999994 micro, which a bare floor would drop a tick.
const SNAP_TICKS = 1e-9;

function toGrid(micro: number, tick: number, round: (x: number) => number): number | undefined {
  if (!Number.isFinite(micro)) return undefined;
  const n = micro / tick;
  const near = Math.round(n);
  return (Math.abs(n - near) < SNAP_TICKS ? near : round(n)) * tick;
}

/**
 * A model (float) price in micro-units rounded DOWN onto the tick grid — how bids leave a model.
 * @example gridDown(464_898.7, 1_000) // 464000
 */
export function gridDown(micro: number, tickMicro: number): number | undefined {
  return toGrid(micro, tickMicro, Math.floor);
}

/**
 * A model (float) price in micro-units rounded UP onto the tick grid — how asks leave a model.
 * @example gridUp(491_901.3, 1_000) // 492000
 */
export function gridUp(micro: number, tickMicro: number): number | undefined {
  return toGrid(micro, tickMicro, Math.ceil);
}

/** The on-grid prices each side may take: within [tick, 1 − tick] and never at or through the opposite best. */
export interface GridBounds {
  /** The price band [tick, 1 − tick] on the grid. */
  readonly min: number;
  readonly max: number;
  /** Highest bid: the band's top or one tick below the best ask, whichever is lower. */
  readonly bidMax: number;
  /** Lowest ask: the band's bottom or one tick above the best bid, whichever is higher. */
  readonly askMin: number;
}

/**
 * Bounds for our quotes given the touch: bids in [tick, min(1 − tick, one tick below the best ask)],
 * asks in [max(tick, one tick above the best bid), 1 − tick], all on the grid (1 − tick itself is
 * rounded down when the tick does not divide 1). "One tick below the best ask" is the highest grid
 * price strictly below it, so a clamped bid rests passively instead of taking.
 * @example gridBounds({ bid: 490_000, ask: 510_000 }, 10_000) // { min: 10000, max: 990000, bidMax: 500000, askMin: 500000 }
 */
export function gridBounds(touch: Touch, tickMicro: number): GridBounds {
  const t = tickMicro;
  const top = Math.floor((ONE_MICRO - t) / t) * t;
  return {
    min: t,
    max: top,
    bidMax: Math.min(top, (Math.ceil(touch.ask / t) - 1) * t),
    askMin: Math.max(t, (Math.floor(touch.bid / t) + 1) * t),
  };
}

// Why a model price is clamped on one side and skipped on the other. A model (A–S, GLFT) quotes
// a bid below its indifference price for one more lot by a positive margin (A–S: r − δ/2 is
// (1/γ)·ln(1 + γ/k) below the reservation bid s − (1 + 2q)·γσ²(T − t)/2; GLFT: c1 > 0 below it),
// so any LOWER bid still gains in the model's own terms, and any HIGHER one gives that margin away.
// - Toward the touch (a bid at or above the best ask, an ask at or below the best bid): the model
//   would take; resting one tick inside the opposite best is a better price than the model's, still
//   within its gain, only filled less often. Clamped. This also covers a bid above 1 − tick (deep
//   short inventory: buying back at the highest passive price is what the model wants, and cheaper)
//   and an ask below the tick (deep long: selling at the lowest passive price, dearer than the model's).
// - Away from the touch (a bid below the tick, an ask above 1 − tick): there is no such price. Raising
//   the bid to the tick would buy above the model's price, typically above its value for one more lot
//   (long inventory or a far close put r below 0); those bids rest indefinitely and fill only as the
//   market collapses toward 0, and then again after every fill, growing the position the model was
//   shedding. Skipped, as `bands` skips a band outside [tick, 1 − tick].

/**
 * An on-grid bid within its bounds; undefined when there is no room (or no price). A bid at or above
 * the best ask (or above 1 − tick) is LOWERED to `bidMax`; a bid below the tick is skipped, never
 * raised (see the note above).
 * @example clampBid(530_000, gridBounds({ bid: 490_000, ask: 510_000 }, 10_000)) // 500000
 * @example clampBid(0, gridBounds({ bid: 490_000, ask: 510_000 }, 10_000)) // undefined
 */
export function clampBid(priceMicro: number | undefined, g: GridBounds): number | undefined {
  if (priceMicro === undefined || priceMicro < g.min || g.bidMax < g.min) return undefined;
  return Math.min(priceMicro, g.bidMax);
}

/**
 * An on-grid ask within its bounds; undefined when there is no room (or no price). An ask at or
 * below the best bid (or below the tick) is RAISED to `askMin`; an ask above 1 − tick is skipped,
 * never lowered (see the note above).
 * @example clampAsk(470_000, gridBounds({ bid: 490_000, ask: 510_000 }, 10_000)) // 500000
 * @example clampAsk(1_010_000, gridBounds({ bid: 490_000, ask: 510_000 }, 10_000)) // undefined
 */
export function clampAsk(priceMicro: number | undefined, g: GridBounds): number | undefined {
  if (priceMicro === undefined || priceMicro > g.max || g.max < g.askMin) return undefined;
  return Math.max(priceMicro, g.askMin);
}

/** A candidate quote: a side, a level, a price that may be missing (skipped) and a size. */
export interface Candidate {
  readonly side: DesiredQuote["side"];
  readonly level: number;
  readonly priceMicro: number | undefined;
  readonly sizeMicro: bigint;
}

/**
 * The quotes that leave a strategy: candidates without a price or below the market's minimum size
 * are dropped; when one of our bids is at or above one of our asks, both offending quotes are
 * dropped (a guard: the clamps only lower bids and raise asks, so it takes a model bid and ask
 * that snap onto the same grid price); the rest come out bids then asks, each by level.
 * @example finalizeQuotes([{ side: "buy", level: 0, priceMicro: 490_000, sizeMicro: 5_000_000n }], 1_000_000n)
 */
export function finalizeQuotes(candidates: readonly Candidate[], minSizeMicro: bigint): DesiredQuote[] {
  const kept: DesiredQuote[] = [];
  for (const c of candidates) {
    if (c.priceMicro === undefined || c.sizeMicro < minSizeMicro || c.sizeMicro <= 0n) continue;
    kept.push({ side: c.side, level: c.level, priceMicro: c.priceMicro, sizeMicro: c.sizeMicro });
  }
  let maxBid = Number.NEGATIVE_INFINITY;
  let minAsk = Number.POSITIVE_INFINITY;
  for (const q of kept) {
    if (q.side === "buy") maxBid = Math.max(maxBid, q.priceMicro);
    else minAsk = Math.min(minAsk, q.priceMicro);
  }
  return kept
    .filter((q) => (q.side === "buy" ? q.priceMicro < minAsk : q.priceMicro > maxBid))
    .sort((a, b) => (a.side === b.side ? a.level - b.level : a.side === "buy" ? -1 : 1));
}

/**
 * One bid and one ask (level 0) from a model's float prices in micro-units: the bid rounded down
 * and the ask rounded up onto the grid, then clampBid / clampAsk (clamped toward the touch, skipped
 * beyond [tick, 1 − tick]; a missing or non-finite price skips that side), then finalized.
 * @example modelQuotes(ctx, touch, 464_898.7, 491_901.3, 10_000_000n) // bid 0.464, ask 0.492 at tick 0.001
 */
export function modelQuotes(
  ctx: StrategyContext,
  touch: Touch,
  bidMicro: number | undefined,
  askMicro: number | undefined,
  sizeMicro: bigint,
): DesiredQuote[] {
  const tick = ctx.market.tickMicro;
  const g = gridBounds(touch, tick);
  const bid = bidMicro === undefined ? undefined : clampBid(gridDown(bidMicro, tick), g);
  const ask = askMicro === undefined ? undefined : clampAsk(gridUp(askMicro, tick), g);
  return finalizeQuotes(
    [
      { side: "buy", level: 0, priceMicro: bid, sizeMicro },
      { side: "sell", level: 0, priceMicro: ask, sizeMicro },
    ],
    ctx.market.minSizeMicro,
  );
}

/**
 * Inventory in lots of `lotMicro` shares (a real number: 25 shares with 10-share lots → 2.5).
 * @example inventoryLots(30_000_000n, 10_000_000n) // 3
 */
export function inventoryLots(inventoryMicro: bigint, lotMicro: bigint): number {
  return Number(inventoryMicro) / Number(lotMicro);
}
