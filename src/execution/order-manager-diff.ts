import type { DesiredQuote, LocalOrder } from "../core/trading.js";
import type { CancelIntent, CancelReason, PlaceIntent } from "./intents.js";

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

/** urgencyTicks of a placement with no live quote (no open order) to replace: more urgent than any requote. */
export const MISSING_LIVE_URGENCY = 1_000_000;

/**
 * A live order as the diff sees it; `queued` (not yet sent) placements may be superseded;
 * `needsReconcile` and `cancelDoubted` mark an order a cancel of which failed or went unanswered,
 * `cancelFirst` one cancelled to be renewed whose replacement waits for that cancel (see TrackedOrder).
 */
export type LiveOrder = LocalOrder & {
  readonly queued?: boolean;
  readonly needsReconcile?: boolean;
  readonly cancelDoubted?: boolean;
  readonly cancelFirst?: boolean;
};

/** Everything one diff reads; `T` is the caller's order type, handed back in `superseded` / `withdrawn`. */
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
  /**
   * Open orders close enough to their on-chain expiry to be replaced now, whatever their price
   * (order-renewal.ts); absent: none (orders without expiry).
   */
  readonly expiring?: (o: T) => boolean;
}

/** The intents one diff asks for. */
export interface DiffResult<T extends LiveOrder = LiveOrder> {
  /** Cancels first (they free exposure and budget), then placements, each in (side, level) order. */
  readonly cancels: readonly CancelIntent[];
  readonly places: readonly PlaceIntent[];
  /**
   * Queued placements superseded by this diff, on levels it quotes anew or keeps another order on:
   * retire them (they were never sent).
   */
  readonly superseded: readonly T[];
  /**
   * Queued placements on levels with no desired quote (the strategy stopped quoting the level, or
   * the risk guard or the in-flight fit dropped its quote): retire them too. Apart from `superseded`
   * because nothing replaced them: their cancel is named like an open order's there (`not_desired`,
   * then engine/cancel-reasons.ts namedCancels), not counted as churn.
   */
  readonly withdrawn: readonly T[];
  /**
   * Orders among `cancels` whose level's replacement waits for that cancel's answer (bids renewed
   * before their expiry): mark them cancel-then-place (TrackedOrder.cancelFirst) with the cancel.
   */
  readonly cancelFirst: readonly T[];
}

/**
 * Diffs desired quotes against live orders, level by level (key = side + level):
 * - no desired quote → cancel the level's open orders, retire its queued placements (`withdrawn`);
 * - an open order within tolerance → keep it (and cancel any extra open order on the level);
 * - a queued placement within tolerance → keep it; otherwise the level is cancel-replaced: cancel the
 *   open orders, retire the queued placements, and place the desired quote
 * - unless the level has a placement in flight (sent, unanswered), an `unknown` order or a cancel that
 *   failed or went unanswered (`cancelling`, flagged for the reconciler): then nothing new is placed
 *   there until the reconciler settles it, so an ambiguous send or cancel never adds to the level;
 *   its queued placements are retired, not sent;
 * - and an order a cancel of which once failed (`cancelDoubted`) is cancel-then-place: its
 *   replacement waits until its cancel is confirmed, as the exchange may fail that one too;
 * - an open order `expiring` (near its on-chain expiry) is never kept, even at the desired price:
 *   an ask is replaced place-first — it rests on beside its replacement until that one is open and
 *   kept, and is cancelled then (reason `expiring`) — and a bid cancel-then-place (cancelled now,
 *   reason `expiring`, listed in `cancelFirst`: its replacement waits for the cancel's answer),
 *   unless its price moved (a requote like any other) or a cancel of it once failed (cancel-then-
 *   place); the replacement is as urgent as a missing quote (the old one is about to vanish: shed
 *   as a calm requote, the level would empty).
 * Orders that are placing (sent), cancelling or unknown are never the subject of an intent.
 * Pure: same input, same output.
 * @example
 * diffQuotes({ tokenId, marketId, tickMicro: 10_000, desired: [bid], live: [], tolerance: DEFAULT_TOLERANCE,
 *   newClientOrderId: () => "c1" }).places // [{ kind: "place", clientOrderId: "c1", urgencyTicks: 1000000, … }]
 */
export function diffQuotes<T extends LiveOrder>(input: DiffInput<T>): DiffResult<T> {
  // Levels in (side, level) order as they are found (a binary search and an insert by hand): this
  // runs on every quoting step that changes anything, over a handful of levels, where a map of
  // string keys, a sort's work array and per-level lists of open and queued orders were most of
  // what a step allocated.
  const levels: DiffLevel<T>[] = [];
  for (const q of input.desired) {
    const i = levelIndex(levels, q.side, q.level);
    const l = levels[i];
    if (l !== undefined && l.side === q.side && l.level === q.level) l.want ??= q;
    else insertAt(levels, i, { side: q.side, level: q.level, want: q, orders: [] });
  }
  for (const o of input.live) {
    if (o.state === "filled" || o.state === "cancelled" || o.state === "rejected" || o.state === "expired") {
      continue;
    }
    const i = levelIndex(levels, o.side, o.level);
    const l = levels[i];
    if (l !== undefined && l.side === o.side && l.level === o.level) l.orders.push(o);
    else insertAt(levels, i, { side: o.side, level: o.level, want: undefined, orders: [o] });
  }
  const cancels: CancelIntent[] = [];
  const places: PlaceIntent[] = [];
  const superseded: T[] = [];
  const withdrawn: T[] = [];
  const cancelFirsts: T[] = [];
  for (const l of levels) {
    const want = l.want;
    const orders = l.orders;
    let blocked = false;
    for (const o of orders) if (blocks(o)) blocked = true;
    if (want === undefined) {
      for (const o of orders) if (o.state === "open") cancels.push(cancelIntent(input, o, "not_desired"));
      for (const o of orders) if (isQueued(o)) withdrawn.push(o);
      continue;
    }
    // The first open order within tolerance stays, else (unless the level is blocked: nothing new
    // may rest there) the first queued placement within it.
    const expiring = input.expiring;
    let keep: T | undefined;
    for (const o of orders) {
      if (keep === undefined && o.state === "open" && close(o, want, input) && expiring?.(o) !== true)
        keep = o;
    }
    // Place first, cancel after: an expiring ask still at the desired price rests on until its
    // replacement is open (then kept, and it cancelled), so the level is never empty for the
    // replacement's round trip (the shares for both are the in-flight fit's to grant:
    // engine-in-flight.ts holds the replacement where they are not held, and the ask is cancelled
    // first then). Not a bid: the exchange reserves a resting bid's USDC, the engine does not know
    // the wallet's free USDC, and a wallet sized to its quotes cannot hold each bid twice — its
    // replacement beside it was refused `insufficient_funds`, every bid of a start's burst at the
    // same instant every lifetime (the error-rate halt), and a fallback cancel's USDC taken by other
    // markets' replacements. A bid is cancelled first, at one cancel's round trip of gap. Nor one a
    // cancel of which once failed: cancel-then-place too.
    let standIn: T | undefined;
    let renewFirst: T | undefined;
    if (keep === undefined) {
      for (const o of orders) {
        if (o.state !== "open" || cancelFirst(o) || !close(o, want, input)) continue;
        if (o.side === "buy") renewFirst ??= o;
        else standIn ??= o;
      }
      if (renewFirst !== undefined) {
        blocked = true;
        cancelFirsts.push(renewFirst);
      }
    }
    if (keep === undefined) for (const o of orders) if (o.state === "open" && cancelFirst(o)) blocked = true;
    if (!blocked)
      for (const o of orders) if (keep === undefined && isQueued(o) && close(o, want, input)) keep = o;
    for (const o of orders) {
      if (o.state === "open" && o !== keep && o !== standIn) {
        cancels.push(cancelIntent(input, o, cancelReason(o, want, input)));
      }
    }
    for (const o of orders) if (isQueued(o) && o !== keep) superseded.push(o);
    if (keep !== undefined || blocked) continue;
    places.push({
      kind: "place",
      tokenId: input.tokenId,
      marketId: input.marketId,
      clientOrderId: input.newClientOrderId(want),
      quote: want,
      urgencyTicks: urgencyOf(orders, want, input.tickMicro, expiring),
    });
  }
  return { cancels, places, superseded, withdrawn, cancelFirst: cancelFirsts };
}

/**
 * An order that may rest on the book while its fate is open: a placement sent and unanswered, an
 * `unknown` one, one whose cancel failed or went unanswered, or one being cancelled again after
 * that, or one being cancelled before its replacement may go (`cancelFirst`). A new placement on
 * its level could rest beside it, so the level waits (for the reconciler, triggered by the same
 * answer, or for the cancel's answer).
 */
function blocks(o: LiveOrder): boolean {
  return (
    o.state === "unknown" ||
    (o.state === "placing" && o.queued !== true) ||
    (o.state === "cancelling" && (o.needsReconcile === true || cancelFirst(o)))
  );
}

/** Whether the order's replacement waits for its cancel (cancel-then-place, not place-first). */
function cancelFirst(o: LiveOrder): boolean {
  return o.cancelDoubted === true || o.cancelFirst === true;
}

/** A placement not sent yet (the diff may supersede it). */
function isQueued(o: LiveOrder): boolean {
  return o.state === "placing" && o.queued === true;
}

// Where (side, level) is or belongs in `levels`, kept in byLevel order: the first entry not before it.
function levelIndex(levels: readonly DiffLevel<unknown>[], side: string, level: number): number {
  let lo = 0;
  let hi = levels.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const l = levels[mid] as DiffLevel<unknown>;
    if (l.side === side ? l.level < level : l.side < side) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertAt<L>(list: L[], i: number, item: L): void {
  list.push(item);
  for (let j = list.length - 1; j > i; j--) list[j] = list[j - 1] as L;
  list[i] = item;
}

/** One (side, level) of a diff: the desired quote there (the first listed) and the live orders. */
interface DiffLevel<T> {
  readonly side: string;
  readonly level: number;
  want: DesiredQuote | undefined;
  readonly orders: T[];
}

function close(
  o: LocalOrder,
  want: DesiredQuote,
  input: Pick<DiffInput, "tickMicro" | "tolerance">,
): boolean {
  return withinTolerance(o, want, input.tickMicro, input.tolerance);
}

/** Why an open order on a level with a desired quote is cancelled (it is not the one kept). */
function cancelReason<T extends LiveOrder>(o: T, want: DesiredQuote, input: DiffInput<T>): CancelReason {
  if (!close(o, want, input)) return "requote";
  return input.expiring?.(o) === true ? "expiring" : "duplicate";
}

function cancelIntent(
  input: Pick<DiffInput, "tokenId" | "marketId">,
  o: LocalOrder,
  reason: CancelReason,
): CancelIntent {
  return {
    kind: "cancel",
    tokenId: input.tokenId,
    marketId: input.marketId,
    clientOrderId: o.clientOrderId,
    orderId: o.orderId,
    reason,
    level: { side: o.side, level: o.level },
  };
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

// How urgent the placement replacing the level's open orders is: the fewest ticks any of them is off
// the desired price; none at all is the most urgent. Queued placements do not count: nothing of ours
// rests on the book for them, and measured from one the replacement of a never-sent quote was "calm"
// (often 1 tick), so under a tight budget the level's only quote was shed or sorted behind real
// requotes while the level stood empty. Nor do expiring ones: they leave the book on their own soon.
function urgencyOf<T extends LiveOrder>(
  orders: readonly T[],
  want: DesiredQuote,
  tickMicro: number,
  expiring: ((o: T) => boolean) | undefined,
): number {
  let best = MISSING_LIVE_URGENCY;
  for (const o of orders) {
    if (o.state !== "open" || expiring?.(o) === true) continue;
    best = Math.min(best, Math.floor(Math.abs(o.priceMicro - want.priceMicro) / tickMicro));
  }
  return best;
}
