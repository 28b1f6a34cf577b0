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

/** The quotes beyond a side's cap (levelExcess). */
export interface LevelExcess {
  readonly dropped: ReadonlySet<DesiredQuote>;
  /** Per side, its dropped quote nearest the touch, which carries the side's one decision. */
  readonly named: ReadonlyMap<DesiredQuote, { readonly quotes: number; readonly dropped: number }>;
}

/**
 * The quotes of `desired` beyond `cap` on their side (risk.order.maxLevels), or undefined when no
 * side has more: each side keeps its `cap` quotes nearest the touch — the highest bids, the lowest
 * asks, at one price the lower level, then the earlier in the output; a price that is not an
 * integer ranks last (it is dropped as invalid_quote anyway). Later duplicates of a level are not
 * counted (they are dropped as such). By price, not by level number, so that a ladder numbered the
 * wrong way round still keeps the quotes that matter. Counting only, no allocation, when no side
 * exceeds the cap (every step of every shipped strategy).
 * @example levelExcess([bid(0.47, L0), bid(0.46, L1), bid(0.45, L2)], 2, undefined)?.dropped // {bid 0.45}
 */
export function levelExcess(
  desired: readonly DesiredQuote[],
  cap: number,
  duplicates: ReadonlyMap<DesiredQuote, DesiredQuote> | undefined,
): LevelExcess | undefined {
  if (desired.length <= cap) return undefined;
  let bids = 0;
  let asks = 0;
  for (const q of desired) {
    if (duplicates?.has(q) === true) continue;
    if (q.side === "buy") bids++;
    else if (q.side === "sell") asks++;
  }
  if (bids <= cap && asks <= cap) return undefined;
  const dropped = new Set<DesiredQuote>();
  const named = new Map<DesiredQuote, { quotes: number; dropped: number }>();
  for (const [side, count] of [
    ["buy", bids],
    ["sell", asks],
  ] as const) {
    if (count <= cap) continue;
    const ranked = desired
      .map((q, i) => ({ q, i }))
      .filter(({ q }) => q.side === side && duplicates?.has(q) !== true)
      .sort((a, b) => nearer(side, a.q, b.q) || a.i - b.i);
    const beyond = ranked.slice(cap);
    for (const { q } of beyond) dropped.add(q);
    const first = beyond[0];
    if (first !== undefined) named.set(first.q, { quotes: count, dropped: beyond.length });
  }
  return { dropped, named };
}

/**
 * Drops `q` when it lies beyond its side's cap (levelExcess); the side's first such quote pushes
 * the side's one `invalid_quote` (detail levelCap, quotes: the side's count, dropped: how many),
 * the others go without a decision of their own (thousands of rungs are one fault). True when it
 * may go on.
 */
export function checkLevelCap(
  q: DesiredQuote,
  market: TokenMarket,
  cap: number,
  excess: LevelExcess | undefined,
  decisions: RiskDecision[],
): boolean {
  if (excess?.dropped.has(q) !== true) return true;
  const n = excess.named.get(q);
  if (n !== undefined) {
    decisions.push(
      quoteDecision("invalid_quote", "drop", market, q, {
        levelCap: cap,
        quotes: n.quotes,
        dropped: n.dropped,
      }),
    );
  }
  return false;
}

/** Negative when `a` is nearer the touch than `b` on `side`: by price, then by level. */
function nearer(side: "buy" | "sell", a: DesiredQuote, b: DesiredQuote): number {
  const pa = rankPrice(side, a.priceMicro);
  const pb = rankPrice(side, b.priceMicro);
  if (pa !== pb) return pa < pb ? -1 : 1;
  const la = Number.isSafeInteger(a.level) ? a.level : Number.POSITIVE_INFINITY;
  const lb = Number.isSafeInteger(b.level) ? b.level : Number.POSITIVE_INFINITY;
  return la === lb ? 0 : la < lb ? -1 : 1;
}

/** Smaller is nearer the touch: −price for a bid, price for an ask; a malformed price last. */
function rankPrice(side: "buy" | "sell", price: number): number {
  if (!Number.isSafeInteger(price)) return Number.POSITIVE_INFINITY;
  return side === "buy" ? -price : price;
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
