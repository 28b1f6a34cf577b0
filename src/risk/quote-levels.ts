import type { DesiredQuote, TokenMarket } from "../core/trading.js";
import { fmtPrice, quoteDecision, type RiskDecision } from "./decision.js";

/**
 * The quotes of `desired` on a side and level an earlier quote of it already took, each mapped to
 * that first one; undefined when there are none. The order manager keys orders by (side, level) and
 * keeps the first quote of a level, so a later one would be ignored without a word: the guard drops
 * it instead, named (checkDuplicate). Output in the documented order (bids by level, then asks by
 * level, each level once: every shipped strategy's) is recognised in one pass without allocating.
 * @example laterDuplicates([bid0, bid0b, ask0])?.get(bid0b) === bid0
 */
export function laterDuplicates(
  desired: readonly DesiredQuote[],
): ReadonlyMap<DesiredQuote, DesiredQuote> | undefined {
  if (strictlyOrdered(desired)) return undefined;
  const first = new Map<string, DesiredQuote>();
  const later = new Map<DesiredQuote, DesiredQuote>();
  for (const q of desired) {
    const key = `${String(q.side)}:${String(q.level)}`;
    const f = first.get(key);
    if (f === undefined) first.set(key, q);
    else later.set(q, f);
  }
  return later.size === 0 ? undefined : later;
}

/**
 * Drops `q` (pushing `invalid_quote`, detail `duplicateOf`: the price of the level's first quote)
 * when it is a later quote on a side and level (laterDuplicates); true when it may go on.
 */
export function checkDuplicate(
  q: DesiredQuote,
  market: TokenMarket,
  duplicates: ReadonlyMap<DesiredQuote, DesiredQuote> | undefined,
  decisions: RiskDecision[],
): boolean {
  const first = duplicates?.get(q);
  if (first === undefined) return true;
  decisions.push(
    quoteDecision("invalid_quote", "drop", market, q, { duplicateOf: fmtPrice(first.priceMicro) }),
  );
  return false;
}

// Bids before asks, levels strictly increasing within a side. A malformed side or level (NaN)
// compares false: the slow pass then looks at keys.
function strictlyOrdered(desired: readonly DesiredQuote[]): boolean {
  for (let i = 1; i < desired.length; i++) {
    const a = desired[i - 1] as DesiredQuote;
    const b = desired[i] as DesiredQuote;
    const before = a.side === b.side ? a.level < b.level : a.side === "buy" && b.side === "sell";
    if (!before) return false;
  }
  return true;
}
