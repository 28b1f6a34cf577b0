import type { DesiredQuote, LocalOrder } from "../core/trading.js";
import type { CancelIntent, PlaceIntent } from "./intents.js";

/** When a live quote is close enough to the desired one to leave it resting. */
export interface QuoteTolerance {
  /**
   * Requote when |Δprice| ≥ priceTicks × tick. 1 (the default) requotes on any on-tick change; 2
   * tolerates a one-tick wobble. 0 requotes on any difference at all.
   */
  readonly priceTicks: number;
  /**
   * Requote when |remaining − desired size| ≥ sizeFraction × desired size (0.1 = 10 %). Compares the
   * order's unfilled remainder, so partial fills top a quote up once they eat past the tolerance.
   */
  readonly sizeFraction: number;
}

export const DEFAULT_TOLERANCE: QuoteTolerance = { priceTicks: 1, sizeFraction: 0.1 };

/** urgencyTicks of a placement with no live quote to replace: more urgent than any requote. */
export const MISSING_LIVE_URGENCY = 1_000_000;

/** A live order as the diff sees it; `queued` (not yet sent) placements may be superseded. */
export type LiveOrder = LocalOrder & { readonly queued?: boolean };

/** Everything one diff reads; `T` is the caller's order type, handed back in `superseded`. */
export interface DiffInput<T extends LiveOrder = LiveOrder> {
  readonly tokenId: string;
  readonly marketId: string;
  readonly tickMicro: number;
  readonly desired: readonly DesiredQuote[];
  /** The token's live orders; terminal ones are ignored. */
  readonly live: readonly T[];
  readonly tolerance: QuoteTolerance;
  /** Mints the clientOrderId of a new placement (the only impure-looking step: a counter). */
  readonly newClientOrderId: (q: DesiredQuote) => string;
}

/** The intents one diff asks for. */
export interface DiffResult<T extends LiveOrder = LiveOrder> {
  /** Cancels first (they free exposure and budget), then placements, each in (side, level) order. */
  readonly cancels: readonly CancelIntent[];
  readonly places: readonly PlaceIntent[];
  /** Queued placements superseded by this diff: retire them (they were never sent). */
  readonly superseded: readonly T[];
}

/**
 * Diffs desired quotes against live orders, level by level (key = side + level):
 * - no desired quote → cancel the level's open orders, retire its queued placements;
 * - an open order within tolerance → keep it (and cancel any extra open order on the level);
 * - a queued placement within tolerance → keep it; otherwise the level is cancel-replaced: cancel the
 *   open orders, retire the queued placements, and place the desired quote
 * - unless the level has a placement in flight (sent, unanswered) or an `unknown` order: then nothing
 *   new is placed there, so an ambiguous send can never double the exposure.
 * Orders that are placing (sent), cancelling or unknown are never the subject of an intent.
 * Pure: same input, same output.
 * @example
 * diffQuotes({ tokenId, marketId, tickMicro: 10_000, desired: [bid], live: [], tolerance: DEFAULT_TOLERANCE,
 *   newClientOrderId: () => "c1" }).places // [{ kind: "place", clientOrderId: "c1", urgencyTicks: 1000000, … }]
 */
export function diffQuotes<T extends LiveOrder>(input: DiffInput<T>): DiffResult<T> {
  // Levels by key, in (side, level) order once sorted; built without per-call closures (this runs
  // on every quoting step that changes anything).
  const levels = new Map<string, DiffLevel<T>>();
  for (const q of input.desired) {
    const key = keyOf(q);
    const l = levels.get(key);
    if (l === undefined) levels.set(key, { side: q.side, level: q.level, want: q, orders: [] });
    else l.want ??= q;
  }
  for (const o of input.live) {
    if (o.state === "filled" || o.state === "cancelled" || o.state === "rejected" || o.state === "expired") {
      continue;
    }
    const key = keyOf(o);
    const l = levels.get(key);
    if (l === undefined) levels.set(key, { side: o.side, level: o.level, want: undefined, orders: [o] });
    else l.orders.push(o);
  }
  const cancels: CancelIntent[] = [];
  const places: PlaceIntent[] = [];
  const superseded: T[] = [];
  for (const l of [...levels.values()].sort(byLevel)) {
    const want = l.want;
    const open: T[] = [];
    const queued: T[] = [];
    let blocked = false;
    for (const o of l.orders) {
      if (o.state === "open") open.push(o);
      else if (o.state === "placing" && o.queued === true) queued.push(o);
      if (o.state === "unknown" || (o.state === "placing" && o.queued !== true)) blocked = true;
    }
    if (want === undefined) {
      for (const o of open) cancels.push(cancelIntent(input, o, "not_desired"));
      for (const o of queued) superseded.push(o);
      continue;
    }
    let keep: T | undefined;
    for (const o of open) if (keep === undefined && close(o, want, input)) keep = o;
    for (const o of queued) if (keep === undefined && close(o, want, input)) keep = o;
    for (const o of open) {
      if (o !== keep) cancels.push(cancelIntent(input, o, close(o, want, input) ? "duplicate" : "requote"));
    }
    for (const o of queued) if (o !== keep) superseded.push(o);
    if (keep !== undefined || blocked) continue;
    places.push({
      kind: "place",
      tokenId: input.tokenId,
      marketId: input.marketId,
      clientOrderId: input.newClientOrderId(want),
      quote: want,
      urgencyTicks: urgencyOf([...open, ...queued], want, input.tickMicro),
    });
  }
  return { cancels, places, superseded };
}

/** One (side, level) of a diff: the desired quote there (the first listed) and the live orders. */
interface DiffLevel<T> {
  readonly side: string;
  readonly level: number;
  want: DesiredQuote | undefined;
  readonly orders: T[];
}

function close(o: LocalOrder, want: DesiredQuote, input: DiffInput<LiveOrder>): boolean {
  return withinTolerance(o, want, input.tickMicro, input.tolerance);
}

function cancelIntent(input: DiffInput<LiveOrder>, o: LocalOrder, reason: string): CancelIntent {
  return {
    kind: "cancel",
    tokenId: input.tokenId,
    marketId: input.marketId,
    clientOrderId: o.clientOrderId,
    orderId: o.orderId,
    reason,
  };
}

// Bids ("buy") before asks ("sell"), each by level.
function byLevel(a: DiffLevel<unknown>, b: DiffLevel<unknown>): number {
  return a.side === b.side ? a.level - b.level : a.side < b.side ? -1 : 1;
}

/**
 * True when `o` is close enough to `want` to stay: |Δprice| < priceTicks × tick (or equal), and its
 * remaining size is at most the wanted size and within sizeFraction × size of it. A remainder above
 * the wanted size never stays: a smaller want is a risk limit's clip (a fixed-size strategy asks for
 * less only then), and keeping the bigger order would rest past that limit. Exact integer arithmetic.
 */
export function withinTolerance(
  o: LocalOrder,
  want: DesiredQuote,
  tickMicro: number,
  tol: QuoteTolerance,
): boolean {
  const dp = Math.abs(o.priceMicro - want.priceMicro);
  if (dp > 0 && dp >= tol.priceTicks * tickMicro) return false;
  const remaining = o.sizeMicro - o.filledMicro;
  if (remaining > want.sizeMicro) return false;
  const ds = want.sizeMicro - remaining;
  const ppm = BigInt(Math.round(tol.sizeFraction * 1_000_000));
  return ds === 0n || ds * 1_000_000n < ppm * want.sizeMicro;
}

function urgencyOf(replaced: readonly LiveOrder[], want: DesiredQuote, tickMicro: number): number {
  if (replaced.length === 0) return MISSING_LIVE_URGENCY;
  let best = MISSING_LIVE_URGENCY;
  for (const o of replaced)
    best = Math.min(best, Math.floor(Math.abs(o.priceMicro - want.priceMicro) / tickMicro));
  return best;
}

function keyOf(q: { readonly side: string; readonly level: number }): string {
  return `${q.side}:${q.level}`;
}
