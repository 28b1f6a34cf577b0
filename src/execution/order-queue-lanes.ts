import type { PlaceOrderOutcome } from "../exchange/place-outcome.js";
import type { CancelAllIntent, CancelIntent, PlaceIntent } from "./intents.js";
import { MISSING_LIVE_URGENCY } from "./order-manager-diff.js";

/** The answer to an earlier send of a placement that was re-queued (a retryable reject). */
export interface PlaceAnswer {
  readonly outcome: Extract<PlaceOrderOutcome, { kind: "rejected" }>;
  readonly sentAt: number;
  readonly answeredAt: number;
}

/** A placement waiting to be sent. */
export interface QueuedPlace {
  /** Swapped for a copy ranked as a missing quote when its level empties (levelEmptied). */
  intent: PlaceIntent;
  readonly key: string;
  /** Place in line; a placement superseding a queued one of the same key keeps that one's (and its enqueuedAt). */
  readonly seq: number;
  readonly enqueuedAt: number;
  /** Sends so far (a retryable reject may re-queue it once). */
  attempts: number;
  /**
   * Set when it was sent before and re-queued: the retryable reject it got. Should the queue then
   * drop it unsent, that answer is its outcome (it was sent, so it is not reported as a drop).
   */
  lastAnswer: PlaceAnswer | undefined;
  withdrawnBy?: "cancel_all" | "closed";
}

/** A single cancel waiting to be sent; duplicates for the same order ride along in `intents`. */
export interface QueuedCancel {
  readonly intents: CancelIntent[];
  readonly clientOrderId: string;
  readonly marketId: string;
  orderId: string;
  /** Taken as it was enqueued (kept when re-queued): which cancel-alls were sent after it (coverRateLimited). */
  readonly seq: number;
  readonly enqueuedAt: number;
  attempts: number;
}

// Every intent of a queued cancel names the same order, so the same token.
const tokenOf = (c: QueuedCancel): string => (c.intents[0] as CancelIntent).tokenId;

/** A cancel-all waiting to be sent, with the single cancels it makes unnecessary. */
export interface QueuedCancelAll {
  /** Explicit intents it answers (none when the queue substituted it for single cancels). */
  readonly intents: CancelAllIntent[];
  /** Undefined: every market (the kill switch). */
  readonly marketId: string | undefined;
  readonly covered: QueuedCancel[];
  readonly seq: number;
  readonly enqueuedAt: number;
  attempts: number;
  /**
   * The queue's sequence number (QueueState.nextSeq) taken as its latest send left: what it clears
   * is every order known by then, so every cancel enqueued before (a lower `seq`). A sequence, not a
   * clock reading: the wall clock can step back and make a cancel enqueued later look earlier.
   */
  sentSeq?: number;
}

/** (tokenId, side, level): a newer placement for the same key supersedes a queued one. */
export function quoteKey(i: PlaceIntent): string {
  return levelKey(i.tokenId, i.quote.side, i.quote.level);
}

function levelKey(tokenId: string, side: string, level: number): string {
  return `${tokenId}|${side}|${level}`;
}

/**
 * A quoting step's cancel is done: the placement queued for its level (the cancel-replace's) was
 * ranked by that order's few ticks off, while the level now stands empty. Under a saturated place
 * budget busy tokens' placements for emptied levels (missing quotes, the most urgent) kept coming
 * ahead of it, and a quiet token's level stayed empty for as long as they did (or, ranked calm, it
 * was shed). It is ranked as a missing quote now, keeping its place in line; one in flight is
 * ranked so too, should a 429 send it back to the lane.
 */
export function levelEmptied(lane: PlacementLane, inFlight: Iterable<QueuedPlace>, done: CancelIntent): void {
  if (done.level === undefined) return;
  const key = levelKey(done.tokenId, done.level.side, done.level.level);
  const raise = (p: QueuedPlace) => {
    if (p.intent.urgencyTicks < MISSING_LIVE_URGENCY)
      p.intent = { ...p.intent, urgencyTicks: MISSING_LIVE_URGENCY };
  };
  const queued = lane.byKey(key);
  if (queued !== undefined) {
    lane.remove(queued);
    raise(queued);
    lane.add(queued);
  }
  for (const p of inFlight) if (p.key === key) raise(p);
}

/** Most urgent first; among equals, oldest first (by the quote's place in line: see QueuedPlace.seq). */
function before(a: QueuedPlace, b: QueuedPlace): boolean {
  const ua = a.intent.urgencyTicks;
  const ub = b.intent.urgencyTicks;
  return ua !== ub ? ua > ub : a.seq < b.seq;
}

/**
 * Placements ordered by urgency (then age), indexed by quote key and clientOrderId. The order makes
 * shedding cheap: the calmest placements are always at the tail.
 */
export class PlacementLane {
  readonly #items: QueuedPlace[] = [];
  readonly #byKey = new Map<string, QueuedPlace>();
  readonly #byCoid = new Map<string, QueuedPlace>();

  get size(): number {
    return this.#items.length;
  }

  /** Adds `item`; returns the queued placement it supersedes, if any (already removed). */
  add(item: QueuedPlace): QueuedPlace | undefined {
    const old = this.#byKey.get(item.key);
    if (old !== undefined) this.remove(old);
    this.#items.splice(this.#indexFor(item), 0, item);
    this.#byKey.set(item.key, item);
    this.#byCoid.set(item.intent.clientOrderId, item);
    return old;
  }

  remove(item: QueuedPlace): void {
    const i = this.#indexFor(item);
    if (this.#items[i] !== item) return;
    this.#items.splice(i, 1);
    this.#byKey.delete(item.key);
    this.#byCoid.delete(item.intent.clientOrderId);
  }

  byClientOrderId(coid: string): QueuedPlace | undefined {
    return this.#byCoid.get(coid);
  }

  byKey(key: string): QueuedPlace | undefined {
    return this.#byKey.get(key);
  }

  /**
   * The earliest enqueuedAt among the queued placements (undefined when none): how long the longest
   * waiting level has waited (a superseding placement keeps the old one's). A scan, not an index: it
   * is read only at scrape time, and the lane's add/remove on the sending path stay as they are.
   */
  oldestEnqueuedAt(): number | undefined {
    let oldest: number | undefined;
    for (const item of this.#items)
      if (oldest === undefined || item.enqueuedAt < oldest) oldest = item.enqueuedAt;
    return oldest;
  }

  /** The most urgent placement `eligible` accepts. */
  first(eligible: (item: QueuedPlace) => boolean): QueuedPlace | undefined {
    for (const item of this.#items) if (eligible(item)) return item;
    return undefined;
  }

  /** Removes calm placements from the tail while more than `keep` are queued. */
  shedTail(keep: number, calmUrgencyTicks: number): QueuedPlace[] {
    const out: QueuedPlace[] = [];
    for (;;) {
      const tail = this.#items[this.#items.length - 1];
      if (tail === undefined || this.#items.length <= keep || tail.intent.urgencyTicks > calmUrgencyTicks)
        break;
      this.remove(tail);
      out.push(tail);
    }
    return out;
  }

  /** Removes and returns every placement `pred` selects. */
  removeWhere(pred: (item: QueuedPlace) => boolean): QueuedPlace[] {
    const out = this.#items.filter(pred);
    for (const item of out) this.remove(item);
    return out;
  }

  /** Binary search: the item's index if present, else where it belongs. */
  #indexFor(item: QueuedPlace): number {
    let lo = 0;
    let hi = this.#items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.#items[mid] as QueuedPlace, item)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Single cancels in arrival order (retries go back to the front), indexed by clientOrderId and market. */
export class CancelLane {
  #items: QueuedCancel[] = [];
  readonly #byCoid = new Map<string, QueuedCancel>();
  readonly #perMarket = new Map<string, number>();
  readonly #perToken = new Map<string, number>();

  get size(): number {
    return this.#items.length;
  }

  /** Queues a cancel; a cancel already queued for the same order absorbs it. */
  add(item: QueuedCancel, front = false): void {
    const same = this.#byCoid.get(item.clientOrderId);
    if (same !== undefined) {
      same.intents.push(...item.intents);
      return;
    }
    if (front) this.#items.unshift(item);
    else this.#items.push(item);
    this.#byCoid.set(item.clientOrderId, item);
    this.#perMarket.set(item.marketId, (this.#perMarket.get(item.marketId) ?? 0) + 1);
    const t = tokenOf(item);
    this.#perToken.set(t, (this.#perToken.get(t) ?? 0) + 1);
  }

  first(): QueuedCancel | undefined {
    return this.#items[0];
  }

  remove(item: QueuedCancel): void {
    const i = this.#items.indexOf(item);
    if (i < 0) return;
    this.#items.splice(i, 1);
    this.#byCoid.delete(item.clientOrderId);
    const n = (this.#perMarket.get(item.marketId) ?? 1) - 1;
    if (n > 0) this.#perMarket.set(item.marketId, n);
    else this.#perMarket.delete(item.marketId);
    const t = tokenOf(item);
    const k = (this.#perToken.get(t) ?? 1) - 1;
    if (k > 0) this.#perToken.set(t, k);
    else this.#perToken.delete(t);
  }

  has(coid: string): boolean {
    return this.#byCoid.has(coid);
  }

  /** Whether a cancel of one of the token's orders waits to be sent. */
  hasToken(tokenId: string): boolean {
    return this.#perToken.has(tokenId);
  }

  /** Markets with their number of queued cancels. */
  markets(): ReadonlyMap<string, number> {
    return this.#perMarket;
  }

  /** Removes and returns the cancels of one market (undefined: all markets). */
  takeMarket(marketId: string | undefined): QueuedCancel[] {
    const out = this.#items.filter((c) => marketId === undefined || c.marketId === marketId);
    for (const c of out) this.remove(c);
    return out;
  }
}
