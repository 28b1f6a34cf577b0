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

/**
 * An on-grid bid clamped into its bounds; undefined when there is no room (or no price).
 * A bid below the tick is raised to the tick; one at or above the best ask is lowered to one tick below it.
 * @example clampBid(530_000, gridBounds({ bid: 490_000, ask: 510_000 }, 10_000)) // 500000
 */
export function clampBid(priceMicro: number | undefined, g: GridBounds): number | undefined {
  if (priceMicro === undefined || g.bidMax < g.min) return undefined;
  return Math.min(Math.max(priceMicro, g.min), g.bidMax);
}

/**
 * An on-grid ask clamped into its bounds; undefined when there is no room (or no price).
 * @example clampAsk(470_000, gridBounds({ bid: 490_000, ask: 510_000 }, 10_000)) // 500000
 */
export function clampAsk(priceMicro: number | undefined, g: GridBounds): number | undefined {
  if (priceMicro === undefined || g.max < g.askMin) return undefined;
  return Math.min(Math.max(priceMicro, g.askMin), g.max);
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
 * are dropped; when clamping has put one of our bids at or above one of our asks (only possible
 * when the book's prices lie off our grid or outside [tick, 1 − tick]), both offending quotes are dropped; the rest come out
 * bids then asks, each by level.
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
 * and the ask rounded up onto the grid, each clamped into its bounds (a missing or non-finite
 * price skips that side), then finalized.
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
