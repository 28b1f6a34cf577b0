import { Dec } from "./decimal.js";

/**
 * A share's payout in micro-USDC from a resolution's payout vector (outcome index → numerator, as
 * decimal strings): numerator / Σ numerators, the conditional-token rule (`["1","0"]` pays 1 and 0;
 * `["1","1"]` 0.5 each), rounded down to the micro. Undefined when the vector does not name the
 * outcome or sums to zero (no payout can be read from it).
 * @example payoutMicro({ "0": "1", "1": "0" }, 0) // 1_000_000
 */
export function payoutMicro(
  payouts: Readonly<Record<string, string>>,
  outcomeIndex: number,
): number | undefined {
  const own = payouts[String(outcomeIndex)];
  if (own === undefined) return undefined;
  let sum = new Dec(0);
  for (const v of Object.values(payouts)) sum = sum.plus(v);
  if (sum.isZero()) return undefined;
  return new Dec(own).div(sum).mul(1_000_000).floor().toNumber();
}
