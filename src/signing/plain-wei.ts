import { assertTick } from "../core/ticks.js";
import { toWei, WEI_PER_UNIT } from "../core/wei.js";

// Plain positive decimals with at most 6 decimals; 30 integer digits stays far inside decimal.js's
// 60-digit precision, so anything accepted here is accepted identically by core.
const PLAIN = /^(\d{1,30})(?:\.(\d{1,6}))?$/;
const MAX_TICKS = 256;
const ticks = new Map<string, bigint>();

/**
 * Exact wei of a plain decimal string ("0.53", "12.000001"), or undefined when the string is not
 * in that simple form (exponents, signs, more than 6 decimals): the caller then defers to core,
 * whose decimal.js path decides and names the refusal. A bigint shortcut for the signing hot path.
 * @example plainWei("0.53") // 530000n
 */
export function plainWei(value: string): bigint | undefined {
  const m = PLAIN.exec(value);
  if (m === null) return undefined;
  return BigInt(m[1] as string) * WEI_PER_UNIT + BigInt((m[2] ?? "").padEnd(6, "0"));
}

/** A market's tick in wei, validated by core once per distinct tick string. */
export function tickWei(tickSize: string): bigint {
  let t = ticks.get(tickSize);
  if (t === undefined) {
    t = toWei(assertTick(tickSize), "tick");
    if (ticks.size >= MAX_TICKS) ticks.clear();
    ticks.set(tickSize, t);
  }
  return t;
}

/** Wei to the canonical decimal string ("530000" → "0.53", "10000000" → "10"). */
export function formatWei(wei: bigint): string {
  const int = wei / WEI_PER_UNIT;
  const frac = wei % WEI_PER_UNIT;
  if (frac === 0n) return int.toString();
  return `${int}.${frac.toString().padStart(6, "0").replace(/0+$/, "")}`;
}
