import type { Decimal } from "decimal.js";
import type { DesiredQuote } from "../src/core/trading.js";
import { ParamReader } from "./params.js";
import {
  type Candidate,
  clampAsk,
  clampBid,
  finalizeQuotes,
  type GridBounds,
  gridBounds,
  quotableTouch,
} from "./quoting.js";
import type { Strategy, StrategyContext } from "./types.js";

/** One band: a distance from the reference price and the size quoted there on each side. */
export interface Band {
  /** Distance from the reference, micro-units of price (0.02 → 20_000), in (0, 1). */
  readonly marginMicro: number;
  /** Size of each side's order, micro-units of shares. */
  readonly sizeMicro: bigint;
}

/** Parameters of `bands`. */
export interface BandsParams {
  /** Centre of the bands: the mid, or the size-weighted microprice of the touch. */
  readonly reference: "mid" | "microprice";
  /** Bands nearest first (margins strictly increasing); band i quotes at level i. */
  readonly bands: readonly Band[];
}

const REFERENCES = ["mid", "microprice"] as const;

/**
 * Validates `bands` parameters: `{ reference?: "mid" | "microprice" (default "mid"), bands: [{ margin, size }] }`
 * with margin and size decimal strings (price units and shares), margins strictly increasing.
 * @example parseBandsParams({ bands: [{ margin: "0.01", size: "10" }, { margin: "0.03", size: "25" }] })
 */
export function parseBandsParams(raw: unknown): BandsParams {
  const r = new ParamReader(raw);
  const reference = r.choice("reference", REFERENCES, "mid");
  const bands = r.list("bands", (b) => ({
    marginMicro: Number(b.micro("margin", 1_000_000n)),
    sizeMicro: b.micro("size"),
  }));
  for (let i = 1; i < bands.length; i++) {
    const prev = bands[i - 1] as Band;
    const cur = bands[i] as Band;
    if (cur.marginMicro > 0 && cur.marginMicro <= prev.marginMicro) {
      r.issue(`bands[${i}].margin`, "margins must be strictly increasing (nearest band first)");
    }
  }
  r.finish("bands");
  return { reference, bands };
}

/**
 * Symmetric bands around the mid or microprice, like Polymarket's keeper bands: for band i, a bid
 * at ref − margin rounded DOWN to the tick and an ask at ref + margin rounded UP, both at level i,
 * each of the band's size. Exact: the reference is a Decimal, no float is involved.
 *
 * - A band whose price falls outside [tick, 1 − tick] is skipped on that side, not clipped: clipping
 *   would stack far bands at the edge, nearer to the reference than their margin says.
 * - Crossing cannot happen (bid ≤ ref − margin < best ask because the reference lies strictly inside
 *   the touch); the common clamp to one tick inside the opposite best still guards it.
 * - A band smaller than the market's minimum size is skipped (never silently enlarged).
 * - No inventory skew: the risk guard's caps bound inventory.
 * @example
 * // book 0.49 / 0.51, tick 0.01, margin 0.02 → bid 0.48, ask 0.52
 * bandsQuotes(ctx, parseBandsParams({ bands: [{ margin: "0.02", size: "10" }] }))
 */
export function bandsQuotes(ctx: StrategyContext, params: BandsParams): DesiredQuote[] {
  const touch = quotableTouch(ctx);
  if (touch === undefined) return [];
  // The mid is (bid + ask) / 2 of the touch (both sides exist): exact in integers, as twice its
  // micro-units. The microprice is a rational: exact as a Decimal.
  const microRef = params.reference === "mid" ? undefined : ctx.book.microprice()?.times(1_000_000);
  if (params.reference !== "mid" && microRef === undefined) return [];
  const twiceMid = touch.bid + touch.ask;
  const tick = ctx.market.tickMicro;
  const g = gridBounds(touch, tick);
  const candidates: Candidate[] = [];
  params.bands.forEach((band, level) => {
    const m = band.marginMicro;
    const bid =
      microRef === undefined
        ? floorDiv(twiceMid - 2 * m, 2 * tick) * tick
        : onGrid(microRef.minus(m), tick, "floor");
    const ask =
      microRef === undefined
        ? ceilDiv(twiceMid + 2 * m, 2 * tick) * tick
        : onGrid(microRef.plus(m), tick, "ceil");
    const size = band.sizeMicro;
    candidates.push({
      side: "buy",
      level,
      priceMicro: inBand(bid, g) ? clampBid(bid, g) : undefined,
      sizeMicro: size,
    });
    candidates.push({
      side: "sell",
      level,
      priceMicro: inBand(ask, g) ? clampAsk(ask, g) : undefined,
      sizeMicro: size,
    });
  });
  return finalizeQuotes(candidates, ctx.market.minSizeMicro);
}

function inBand(price: number, g: GridBounds): boolean {
  return price >= g.min && price <= g.max;
}

function onGrid(micro: Decimal, tick: number, mode: "floor" | "ceil"): number {
  const n = micro.div(tick);
  return (mode === "floor" ? n.floor() : n.ceil()).times(tick).toNumber();
}

// ⌊a / b⌋ and ⌈a / b⌉ of integers, here |a| ≤ 4·10⁶ and 0 < b ≤ 10⁶: the binary quotient (below
// 2²²) is within 2⁻³¹ of the true one, and a quotient that is not an integer lies at least 1/b ≥
// 10⁻⁶ from every integer, so rounding the float gives the exact result.
function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

function ceilDiv(a: number, b: number): number {
  return Math.ceil(a / b);
}

/** The `bands` strategy. */
export const bands: Strategy<BandsParams> = {
  name: "bands",
  parseParams: parseBandsParams,
  quote: bandsQuotes,
  quoteSizes: (p) => p.bands.map((b, i) => ({ field: `bands[${i}].size`, sizeMicro: b.sizeMicro })),
  levelsPerSide: (p) => ({ field: "bands", levels: p.bands.length }),
};
