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
  const desired = new Map<string, DesiredQuote>();
  for (const q of input.desired) if (!desired.has(keyOf(q))) desired.set(keyOf(q), q);
  const live = new Map<string, T[]>();
  for (const o of input.live) {
    if (o.state === "filled" || o.state === "cancelled" || o.state === "rejected" || o.state === "expired") {
      continue;
    }
    const list = live.get(keyOf(o));
    if (list === undefined) live.set(keyOf(o), [o]);
    else list.push(o);
  }
  const cancels: CancelIntent[] = [];
  const places: PlaceIntent[] = [];
  const superseded: T[] = [];
  const cancel = (o: T, reason: string) => {
    cancels.push({
      kind: "cancel",
      tokenId: input.tokenId,
      marketId: input.marketId,
      clientOrderId: o.clientOrderId,
      orderId: o.orderId,
      reason,
    });
  };

  for (const key of [...new Set([...desired.keys(), ...live.keys()])].sort(compareKeys)) {
    const want = desired.get(key);
    const orders = live.get(key) ?? [];
    const open = orders.filter((o) => o.state === "open");
    const queued = orders.filter((o) => o.state === "placing" && o.queued === true);
    const blocked = orders.some((o) => o.state === "unknown" || (o.state === "placing" && o.queued !== true));
    if (want === undefined) {
      for (const o of open) cancel(o, "not_desired");
      superseded.push(...queued);
      continue;
    }
    const close = (o: T) => withinTolerance(o, want, input.tickMicro, input.tolerance);
    const keep = open.find(close) ?? queued.find(close);
    for (const o of open) if (o !== keep) cancel(o, close(o) ? "duplicate" : "requote");
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

/**
 * True when `o` is close enough to `want` to stay: |Δprice| < priceTicks × tick (or equal) and
 * |remaining − size| < sizeFraction × size (or equal). Exact integer arithmetic.
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
  const ds = remaining > want.sizeMicro ? remaining - want.sizeMicro : want.sizeMicro - remaining;
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

function compareKeys(a: string, b: string): number {
  const [sa = "", la = "0"] = a.split(":");
  const [sb = "", lb = "0"] = b.split(":");
  return sa === sb ? Number(la) - Number(lb) : sa < sb ? -1 : 1;
}
