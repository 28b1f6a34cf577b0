import type { Side } from "../core/types.js";
import { isPriceFault, type RiskDecision } from "../risk/decision.js";

/** Every quote judged: a step that ran the guard on the strategy's whole ladder, or a gate. */
export const ALL_QUOTES = -1;

/** Ladder levels told apart; deeper ones share the last bit (a level that deep is rare). */
const LEVELS = 16;

/**
 * The bit of one desired quote in a step's judged mask: 16 levels per side, buy in the low half.
 * @example quoteBit("sell", 0) === 1 << 16
 */
export function quoteBit(side: Side | undefined, level: number | undefined): number {
  const l = level === undefined || level < 0 ? 0 : level >= LEVELS ? LEVELS - 1 : level;
  return 1 << (side === "sell" ? LEVELS + l : l);
}

/**
 * Which quotes a step had for the guard to judge (DecisionLog.step): a bit per (side, level) the
 * strategy desired. A limit on a quote the strategy did not desire this step had nothing to act on
 * and still stands. No allocation: the quoting step runs it on every book update.
 * @example judgedQuotes([{ side: "buy", level: 0, … }]) === 1
 */
export function judgedQuotes(quotes: readonly { side: Side; level: number }[]): number {
  let mask = 0;
  for (const q of quotes) mask |= quoteBit(q.side, q.level);
  return mask;
}

/** What tells one decision from another in the log: reason, action, side, level. */
export function decisionKey(d: RiskDecision): string {
  return `${d.reason}:${d.action}:${d.side ?? ""}:${d.level ?? ""}`;
}

/** A decision as an "ended" entry reads: "soft_cap_reduce_only drop buy L1". */
export function describe(d: RiskDecision): string {
  const quote = d.side === undefined ? "" : ` ${d.side}${d.level === undefined ? "" : ` L${d.level}`}`;
  return `${d.reason} ${d.action}${quote}`;
}

/**
 * Whether `d` is a limit on a quote outside `mask` (not desired this step), which still stands. A
 * price fault (isPriceFault) is not: it was a fact about the quote returned, and with no such quote
 * there is nothing faulty (a crossing cannot outlive the bid, nor an own cross the other side).
 */
function isUnjudged(d: RiskDecision, mask: number): boolean {
  return d.scope === "quote" && !isPriceFault(d.reason) && (mask & quoteBit(d.side, d.level)) === 0;
}

/** How many of `decisions` are limits on quotes outside `mask` (they still stand). */
export function countUnjudged(decisions: readonly RiskDecision[], mask: number): number {
  let n = 0;
  for (const d of decisions) if (isUnjudged(d, mask)) n++;
  return n;
}

/** The decisions of `decisions` that are limits on quotes outside `mask` (they still stand). */
export function unjudged(decisions: readonly RiskDecision[], mask: number): RiskDecision[] {
  return decisions.filter((d) => isUnjudged(d, mask));
}

/** Whether every one of `decisions` is among `standing.keys`. */
export function allIn(decisions: readonly RiskDecision[], standing: { keys: ReadonlySet<string> }): boolean {
  for (const d of decisions) if (!standing.keys.has(decisionKey(d))) return false;
  return true;
}
