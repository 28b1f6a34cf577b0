import { WEI_PER_UNIT } from "../../core/wei.js";

/** Prices of the background levels of one token, best first (micro-units). */
export interface LevelLayout {
  /** Descending. */
  readonly bids: readonly bigint[];
  /** Ascending. */
  readonly asks: readonly bigint[];
}

/**
 * A fair value in (0, 1) as integer micro-units, rounded to nearest and kept within [1, 10⁶ − 1].
 * The YES and NO fair values are then exact complements: `WEI_PER_UNIT − yes`.
 * @example fairMicro(0.553) // 553000n
 */
export function fairMicro(p: number): bigint {
  const m = BigInt(Math.round(p * 1_000_000));
  return m < 1n ? 1n : m >= WEI_PER_UNIT ? WEI_PER_UNIT - 1n : m;
}

/**
 * Where the flow's resting liquidity goes for a token with fair value `fair`: `levels` bids and
 * `levels` asks, the k-th (k = 1…levels) at `k·spreadTicks` ticks from fair value, bids rounded
 * down and asks rounded up to the tick (so every bid is strictly below fair value and every ask
 * strictly above). Levels that would fall outside [tick, 1 − tick] are dropped, not clamped, so a
 * token priced near 0 or 1 simply shows fewer levels on the crowded side.
 * @example levelLayout(550_000n, 10_000n, 2, 2) // { bids: [530000n, 510000n], asks: [570000n, 590000n] }
 */
export function levelLayout(fair: bigint, tick: bigint, levels: number, spreadTicks: number): LevelLayout {
  const step = BigInt(spreadTicks) * tick;
  const bids: bigint[] = [];
  const asks: bigint[] = [];
  for (let k = 1n; k <= BigInt(levels); k++) {
    const bid = floorToTick(fair - k * step, tick);
    const ask = ceilToTick(fair + k * step, tick);
    if (bid >= tick) bids.push(bid);
    if (ask <= WEI_PER_UNIT - tick) asks.push(ask);
  }
  return { bids, asks };
}

/** Largest multiple of `tick` at or below `x` (x may be negative: the result is then ≤ 0). */
export function floorToTick(x: bigint, tick: bigint): bigint {
  const r = ((x % tick) + tick) % tick;
  return x - r;
}

/** Smallest multiple of `tick` at or above `x`. */
export function ceilToTick(x: bigint, tick: bigint): bigint {
  const r = ((x % tick) + tick) % tick;
  return r === 0n ? x : x + tick - r;
}
