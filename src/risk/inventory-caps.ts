import type { DesiredQuote, TokenMarket } from "../core/trading.js";
import type { Side } from "../core/types.js";
import type { RiskConfig } from "./config.js";
import { fmtSize, quoteDecision, type RiskDecision, type RiskReason } from "./decision.js";

/**
 * The inventory the caps apply to, share micro-units. Gross sums count every token's |position|
 * (a YES and a NO holding add up: conservative, it is capital at risk either way); the worst-case
 * grosses count the other tokens with every order of theirs filling. Inconsistent input (a gross
 * below a part of it, a worst case below the gross) is read as the larger figure, never as headroom.
 */
export interface InventoryExposure {
  /** Signed position in the token being quoted (positive long) as the engine measures it. */
  readonly positionMicro: bigint;
  /** Σ |position| over the market's tokens, this one included. */
  readonly marketGrossMicro: bigint;
  /** Σ |position| over every token of the wallet, this one included. */
  readonly totalGrossMicro: bigint;
  /**
   * The market's gross at its worst case, for the hard cap: this token's |position| plus, for every
   * other token of the market, max(|p′ + B′|, |p′ − S′|) with B′ / S′ its buy / sell remainders of
   * every order of ours that can still fill (placing, open, cancelling, unknown). Absent: the other
   * tokens' orders are unknown, they count by their |position| (marketGrossMicro).
   */
  readonly marketWorstMicro?: bigint;
  /** The same over every token of the wallet (absent: totalGrossMicro). */
  readonly totalWorstMicro?: bigint;
  /**
   * Shares of this token the wallet holds, absolutely (the engine: baseline + position): the most a
   * SELL can deliver, since the exchange has no naked shorts.
   */
  readonly heldMicro: bigint;
}

/** How much one side may rest in total, and the reason given when a quote is cut to fit. */
export interface SideLimit {
  readonly capMicro: bigint;
  readonly reason: RiskReason;
}

/** Both sides' limits, and whether quoting is reduce-only. */
export interface SideLimits {
  readonly buy: SideLimit;
  readonly sell: SideLimit;
  readonly reduceOnly: boolean;
}

const abs = (v: bigint): bigint => (v < 0n ? -v : v);
const pos0 = (v: bigint): bigint => (v > 0n ? v : 0n);
const max = (x: bigint, y: bigint): bigint => (x > y ? x : y);

/**
 * The per-side limits for one token. With p its position, a = |p| and
 * L = min(perMarket.hard − (market worst − a), total.hard − (total worst − a)), the largest |p| the
 * hard caps leave this token (L⁺ = max(L, 0)), where a worst gross counts every other token at its
 * worst case, every order of ours on it that can still fill filling (InventoryExposure):
 * - hard cap: a bound on the worst case, every order of ours that can still fill filling, on this
 *   token and on the others. Buys may total L⁺ − p and sells L⁺ + p, so the position ends within
 *   [−L⁺, L⁺] and, the other tokens at their worst, neither gross passes its hard cap — or, when the
 *   position is already beyond L⁺, only moves towards zero. The first token to rest orders takes
 *   the room they need; the next one gets what is left. A side that cannot fit one minimum-size
 *   order is blocked (`hard_cap_side_blocked`): at or over the hard cap, the side that increases |p|
 *   gets no quote at all; a smaller fit is clipped (`hard_cap_size_clipped`).
 * - soft cap: a switch on the current state (the grosses of the positions, orders not counted).
 *   Once market gross ≥ perMarket.soft or total gross ≥ total.soft, quoting is reduce-only: the
 *   side(s) that would increase |p| (both when p = 0) get nothing, and the reducing side may total
 *   at most a, so a full fill lands flat, never flipped (`soft_cap_reduce_only`).
 * So soft stops adding inventory early and keeps unwinding; hard is the ceiling no combination
 * of fills can cross.
 * - holding: sells may total at most the shares held (`heldMicro`); a tighter bound than the above
 *   gives the sell side that cap, reason `insufficient_shares` (0 when the holding is below the
 *   minimum size: no ask at all).
 * The limits bound everything resting on a side: the desired quotes here, and (in the engine) the
 * orders still live while a cancel-replace is in flight (in-flight.ts).
 */
export function sideLimits(
  exp: InventoryExposure,
  caps: RiskConfig["inventory"],
  minSizeMicro: bigint,
): SideLimits {
  const p = exp.positionMicro;
  const a = abs(p);
  const mGross = max(exp.marketGrossMicro, a);
  const tGross = max(exp.totalGrossMicro, mGross);
  const mWorst = max(exp.marketWorstMicro ?? mGross, mGross);
  const tWorst = max(max(exp.totalWorstMicro ?? tGross, tGross), mWorst);
  const byMarket = caps.perMarket.hardMicro - (mWorst - a);
  const byTotal = caps.total.hardMicro - (tWorst - a);
  const room = pos0(byMarket < byTotal ? byMarket : byTotal);
  const reduceOnly = mGross >= caps.perMarket.softMicro || tGross >= caps.total.softMicro;
  const sell = sideLimit(p, p < 0n, pos0(room + p), reduceOnly, minSizeMicro);
  return {
    buy: sideLimit(p, p > 0n, pos0(room - p), reduceOnly, minSizeMicro),
    sell: exp.heldMicro >= sell.capMicro ? sell : holdingLimit(exp.heldMicro, minSizeMicro),
    reduceOnly,
  };
}

// The sell side when the holding binds: the exchange refuses a SELL the wallet cannot deliver.
function holdingLimit(held: bigint, min: bigint): SideLimit {
  return { capMicro: held < min ? 0n : held, reason: "insufficient_shares" };
}

// One side's limit: `towards` = the side adds to |p| when p ≠ 0; `hard` = its room under the hard cap.
function sideLimit(p: bigint, towards: boolean, hard: bigint, reduceOnly: boolean, min: bigint): SideLimit {
  const increasing = p === 0n || towards;
  if (increasing && hard < min) return { capMicro: 0n, reason: "hard_cap_side_blocked" };
  if (reduceOnly) return { capMicro: increasing ? 0n : abs(p), reason: "soft_cap_reduce_only" };
  return { capMicro: hard, reason: "hard_cap_size_clipped" };
}

/**
 * Fits each side's quotes into its limit, nearest level first (then the more aggressive price):
 * a quote that fits passes, one that overflows is clipped to what is left if that is at least the
 * minimum size, otherwise dropped. Returns the survivors in their input order.
 */
export function applyInventoryCaps(
  quotes: readonly DesiredQuote[],
  exp: InventoryExposure,
  caps: RiskConfig["inventory"],
  market: TokenMarket,
  decisions: RiskDecision[],
): DesiredQuote[] {
  const min = market.minSizeMicro > 1n ? market.minSizeMicro : 1n;
  const limits = sideLimits(exp, caps, min);
  const kept: (DesiredQuote | undefined)[] = new Array(quotes.length);
  for (const side of ["buy", "sell"] as const) {
    const { capMicro, reason } = limits[side];
    let left = capMicro;
    for (const i of priority(quotes, side)) {
      const q = quotes[i] as DesiredQuote;
      if (q.sizeMicro <= left) {
        kept[i] = q;
        left -= q.sizeMicro;
      } else if (left >= min) {
        const detail = { ...capDetail(capMicro, exp), to: fmtSize(left) };
        decisions.push(quoteDecision(reason, "clip", market, q, detail));
        kept[i] = { ...q, sizeMicro: left };
        left = 0n;
      } else {
        decisions.push(quoteDecision(reason, "drop", market, q, capDetail(capMicro, exp)));
      }
    }
  }
  const out: DesiredQuote[] = [];
  for (const q of kept) if (q !== undefined) out.push(q);
  return out;
}

// Formatting is Decimal work: only paid for when a decision is actually taken.
function capDetail(capMicro: bigint, exp: InventoryExposure): Record<string, string> {
  return { cap: fmtSize(capMicro), position: fmtSize(exp.positionMicro) };
}

/**
 * Indices of one side's quotes, nearest the touch first: level ascending, then bids high-to-low,
 * asks low-to-high, then input order.
 * @example priority([ask053, bid047, bid048], "buy") // [2, 1]
 */
export function priority(quotes: readonly DesiredQuote[], side: Side): number[] {
  const dir = side === "buy" ? -1 : 1;
  const idx: number[] = [];
  // An insertion sort: a side has a handful of quotes, and no comparator closure per step.
  for (let i = 0; i < quotes.length; i++) {
    const q = quotes[i] as DesiredQuote;
    if (q.side !== side) continue;
    let j = idx.length;
    while (j > 0 && before(q, quotes[idx[j - 1] as number] as DesiredQuote, dir)) j--;
    idx.splice(j, 0, i);
  }
  return idx;
}

// `a` (later in the input) goes before `b`: nearer level, then the more aggressive price.
function before(a: DesiredQuote, b: DesiredQuote, dir: number): boolean {
  return a.level < b.level || (a.level === b.level && dir * (a.priceMicro - b.priceMicro) < 0);
}
