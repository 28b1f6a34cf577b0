import type { DesiredQuote, TokenMarket } from "../core/trading.js";
import { fmtSize, quoteDecision, type RiskDecision } from "./decision.js";
import { priority, type SideLimits } from "./inventory-caps.js";

/**
 * Per side, the remaining size of the token's orders of ours that stay live whatever this step
 * places: resting orders kept, orders being cancelled (this step's cancels included: a cancel takes
 * time to land and the order fills meanwhile), placements sent and unanswered, `unknown` orders.
 * Share micro-units.
 */
export interface CommittedSize {
  readonly buy: bigint;
  readonly sell: bigint;
}

/**
 * Fits a step's new placements into what each side's limit (sideLimits: hard cap, soft
 * reduce-only, shares held) leaves once the orders already committed are counted, so no
 * combination of fills of old and new orders passes the limit. Nearest level first (then the more
 * aggressive price), like applyInventoryCaps: a placement that fits passes; one that overflows is
 * clipped to what is left (`in_flight_clipped`) when that is at least the minimum size, otherwise
 * held back (`in_flight_held`): the engine places it once the answers to the committed orders free
 * the room. Nothing here reads the clock; every decision goes into `decisions`.
 * @returns per input index, the quote to place (maybe clipped), or undefined when held back.
 * @example
 * // hard cap room 15 on the bid side, a 10-share bid being cancelled: the new bid of 10 gets 5.
 * fitInFlight([bid10], { buy: 10_000_000n, sell: 0n }, limits, market, decisions) // [bid of 5]
 */
export function fitInFlight(
  places: readonly DesiredQuote[],
  committed: CommittedSize,
  limits: SideLimits,
  market: TokenMarket,
  decisions: RiskDecision[],
): (DesiredQuote | undefined)[] {
  const min = market.minSizeMicro > 1n ? market.minSizeMicro : 1n;
  // Filled, not holey: undefined is an answer (held back), and callers map over it.
  const out = new Array<DesiredQuote | undefined>(places.length).fill(undefined);
  for (const side of ["buy", "sell"] as const) {
    const limit = limits[side].capMicro;
    let left = limit - committed[side];
    for (const i of priority(places, side)) {
      const q = places[i] as DesiredQuote;
      if (q.sizeMicro <= left) {
        out[i] = q;
        left -= q.sizeMicro;
        continue;
      }
      const detail = { limit: fmtSize(limit), committed: fmtSize(committed[side]) };
      if (left >= min) {
        decisions.push(
          quoteDecision("in_flight_clipped", "clip", market, q, { ...detail, to: fmtSize(left) }),
        );
        out[i] = { ...q, sizeMicro: left };
        left = 0n;
      } else {
        decisions.push(quoteDecision("in_flight_held", "drop", market, q, detail));
      }
    }
  }
  return out;
}
