import { ExchangeError } from "../exchange/exchange-error.js";
import { ForgoneRetries } from "./forgone-retries.js";
import type { CancelAllIntent, CancelIntent, Intent, PlaceIntent } from "./intents.js";
import {
  CancelLane,
  levelEmptied,
  type PlaceAnswer,
  PlacementLane,
  type QueuedCancel,
  type QueuedCancelAll,
  type QueuedPlace,
  quoteKey,
} from "./order-queue-lanes.js";
import type { SettleTarget } from "./order-queue-settle.js";
import type {
  OrderQueueOptions,
  PlaceDropReason,
  QueueDepth,
  QueueReport,
  QueueStats,
} from "./order-queue-types.js";
import { endpointOf } from "./rate-budget.js";

/**
 * Everything the order queue holds between decisions: the three lanes, what is in flight, cancels
 * waiting for an orderId, and the totals. Intake applies the supersede, local-cancel and cancel-all
 * absorption rules as intents arrive; the scheduler (order-queue.ts) decides what leaves and when.
 */
export class QueueState implements SettleTarget {
  readonly places = new PlacementLane();
  readonly cancels = new CancelLane();
  /** Kill switch (marketId undefined) first, then market cancel-alls by age. */
  cancelAlls: QueuedCancelAll[] = [];
  /** Cancels waiting for their in-flight placement's answer, by clientOrderId. */
  readonly awaiting = new Map<string, CancelIntent[]>();
  readonly inFlightPlaces = new Map<string, QueuedPlace>();
  readonly inFlightCancels = new Set<string>();
  readonly inFlightCancelAlls = new Set<QueuedCancelAll>();
  cancelAllAvailable: boolean;
  /** No more placements are sent (the queue is closing). */
  closed = false;
  /** The first cancel or cancel-all refused for a scope the key lacks: see SettleTarget.cancelsRefused. */
  cancelsRefused: ExchangeError | undefined;
  readonly stats: QueueStats = {
    sent: { place: 0, cancel: 0, cancel_all: 0 },
    rateLimited: 0,
    shed: 0,
    superseded: 0,
    cancelledUnsent: 0,
    substitutions: 0,
    requeued: 0,
  };
  readonly #o: OrderQueueOptions;
  #seq = 0;
  /**
   * During intakeAll: the place in line (seq, enqueuedAt) of placements dropped `cancelled_unsent`
   * in this batch, by quote key, for the next placement of that key in it (see intakeAll).
   */
  #carried: Map<string, LineSpot> | undefined;
  /** Until when no cancel-all is substituted, by market ("*" = every market): see pauseSubstitution. */
  readonly #substitutionPausedUntil = new Map<string, number>();
  /** The latest cancel-all that succeeded, by market ("*" = every market): see coverRateLimited. */
  readonly #cleared = new Map<string, { sentSeq: number; cancelled: number }>();
  /** Which placements' 429s the error-rate halt is spared (see QueueReport `retryForgone`). */
  readonly forgone = new ForgoneRetries();

  constructor(opts: OrderQueueOptions) {
    this.#o = opts;
    this.cancelAllAvailable = opts.cancelAllAvailable ?? true;
  }

  get maxCancelAttempts(): number {
    return this.#o.maxCancelAttempts ?? 3;
  }

  /** A fresh sequence number (ties in priority go to the older item). */
  nextSeq(): number {
    return this.#seq++;
  }

  /**
   * Applies one batch (one diff) to the lanes. A placement dropped unsent by a cancel of the batch
   * hands its place in line to the next placement of its quote key in the same batch: the order
   * manager supersedes a queued placement as [drop cancel, place], so without this the replacement
   * would start at the back every time and the key supersede in #intakePlace would never apply (the
   * token re-quoted most often starved under a saturated place budget, as review 16 found).
   */
  intakeAll(intents: Iterable<Intent>): void {
    this.#carried = new Map();
    try {
      for (const intent of intents) this.#intake(intent);
    } finally {
      this.#carried = undefined;
    }
  }

  /** Applies one intent to the lanes. */
  #intake(intent: Intent): void {
    if (intent.kind === "place") this.#intakePlace(intent);
    else if (intent.kind === "cancel") this.intakeCancel(intent, undefined);
    else this.#intakeCancelAll(intent);
  }

  report(r: QueueReport): void {
    // A quoting step's cancel done: the placement queued for its level replaces nothing resting now.
    if (r.kind === "cancel" && (r.outcome.kind === "done" || r.outcome.kind === "covered"))
      levelEmptied(this.places, this.inFlightPlaces.values(), r.intent);
    this.#o.onReport(r);
  }

  /**
   * Takes a placement out for good without sending it (again). One never sent is reported as
   * `place_dropped`. One sent before and re-queued after a retryable reject is reported with that
   * answer instead: the order does not exist (the exchange did not act), and saying it was never sent
   * would be false. The counters count the queue's decision either way.
   */
  dropPlace(item: DroppedPlace, reason: PlaceDropReason): void {
    const { intent } = item;
    if (reason === "shed") {
      this.stats.shed++;
      this.#o.metrics?.shed?.(intent);
    } else if (reason === "superseded") {
      this.stats.superseded++;
      this.#o.metrics?.superseded?.(intent);
    } else if (reason === "cancelled_unsent") this.stats.cancelledUnsent++;
    const answer = item.lastAnswer;
    if (answer === undefined) this.report({ kind: "place_dropped", intent, reason });
    else {
      // Re-queued, so it had its resend left: a 429 it will not get past is forgiven (ForgoneRetries).
      const forgone = this.forgone.forgoes(quoteKey(intent), answer.outcome);
      this.report({ kind: "place", intent, ...answer, ...(forgone ? { retryForgone: true } : {}) });
    }
  }

  #intakePlace(intent: PlaceIntent): void {
    if (this.closed) {
      this.dropPlace({ intent, lastAnswer: undefined }, "closed");
      return;
    }
    const key = quoteKey(intent);
    // A placement that supersedes a queued one for the same quote keeps its place in line (seq, and
    // the wait is counted from it): with a fresh seq the quote moved to the back at every requote, so
    // under a saturated place budget the token re-quoted most often (its price moving most) was never
    // the oldest and got no placement out at all, while the others did.
    // The same goes for one dropped unsent earlier in this batch (intakeAll); the older spot wins.
    const carried = this.#carried?.get(key);
    this.#carried?.delete(key);
    const spot = older(this.places.byKey(key), carried);
    const item: QueuedPlace = {
      intent,
      key,
      seq: spot?.seq ?? this.nextSeq(),
      enqueuedAt: spot?.enqueuedAt ?? this.#o.clock.now(),
      attempts: 0,
      lastAnswer: undefined,
    };
    const old = this.places.add(item);
    if (old !== undefined) this.dropPlace(old, "superseded");
  }

  /** Routes a cancel; `orderId` overrides the intent's (filled in from its placement's answer). */
  intakeCancel(intent: CancelIntent, orderId: string | undefined): void {
    const coid = intent.clientOrderId;
    const queued = this.places.byClientOrderId(coid);
    if (queued !== undefined) {
      this.places.remove(queued);
      if (this.#carried !== undefined) {
        const spot = older(this.#carried.get(queued.key), queued);
        if (spot !== undefined) this.#carried.set(queued.key, { seq: spot.seq, enqueuedAt: spot.enqueuedAt });
      }
      this.dropPlace(queued, "cancelled_unsent");
      this.report({ kind: "cancel", intent, outcome: { kind: "not_sent", reason: notSentReason(queued) } });
      return;
    }
    const id = orderId ?? intent.orderId;
    if (id === undefined) {
      if (this.inFlightPlaces.has(coid)) {
        const list = this.awaiting.get(coid) ?? [];
        list.push(intent);
        this.awaiting.set(coid, list);
        return;
      }
      const error = new ExchangeError({
        code: "order_id_unknown",
        message: "no orderId and no placement of it queued or in flight; reconcile by clientOrderId",
        outcome: "rejected",
        endpoint: endpointOf("cancel"),
        details: { clientOrderId: coid },
      });
      this.report({
        kind: "cancel",
        intent,
        outcome: { kind: "failed", code: error.code, retryable: false, error, requestError: false },
      });
      return;
    }
    const item: QueuedCancel = {
      intents: [intent],
      clientOrderId: coid,
      marketId: intent.marketId,
      orderId: id,
      seq: this.nextSeq(),
      enqueuedAt: this.#o.clock.now(),
      attempts: 0,
    };
    const cover = this.cancelAlls.find((a) => a.marketId === undefined || a.marketId === intent.marketId);
    if (cover !== undefined) cover.covered.push(item);
    else this.cancels.add(item);
  }

  /**
   * A cancel-all drops the placements of its scope queued before it (they were meant for the book it
   * clears) and absorbs its scope's queued cancels; the kill switch absorbs queued market cancel-alls.
   */
  #intakeCancelAll(intent: CancelAllIntent): void {
    const m = intent.marketId;
    for (const p of this.places.removeWhere((p) => m === undefined || p.intent.marketId === m)) {
      this.dropPlace(p, "cancel_all");
    }
    const covered = this.cancels.takeMarket(m);
    const into = this.cancelAlls.find((a) => a.marketId === undefined || a.marketId === m);
    if (into !== undefined) {
      into.intents.push(intent);
      into.covered.push(...covered);
      return;
    }
    const now = this.#o.clock.now();
    const item: QueuedCancelAll = {
      intents: [intent],
      marketId: m,
      covered,
      seq: this.nextSeq(),
      enqueuedAt: now,
      attempts: 0,
    };
    if (m === undefined) {
      for (const a of this.cancelAlls) {
        item.intents.push(...a.intents);
        item.covered.push(...a.covered);
      }
      this.cancelAlls = [item];
    } else this.cancelAlls.push(item);
  }

  /** Puts a cancel back after a retryable answer (front of its lane). */
  requeueCancel(item: QueuedCancel): void {
    this.cancels.add(item, true);
  }

  /** A cancel-all of `scope` (a market, "*") sent at `sentSeq` succeeded: see coverRateLimited. */
  cleared(scope: string, sentSeq: number, cancelled: number): void {
    const last = this.#cleared.get(scope);
    if (last === undefined || last.sentSeq <= sentSeq) this.#cleared.set(scope, { sentSeq, cancelled });
  }

  /**
   * A single cancel answered 429 is made unnecessary by a cancel-all of its market or of every market
   * that clears its order: one still queued (sent later, it will), one in flight that left after the
   * cancel was enqueued (its order, accepted by then, existed when the cancel-all was sent), or one
   * that succeeded with such a send. "After" by the queue's sequence numbers (the cancel's `seq`, the
   * cancel-all's `sentSeq`), never by the clock: after a wall-clock step back a cancel-all that ran
   * before the order existed read as sent after its cancel, which was then reported `covered`. The cancel is folded into the first two (`covered` once that
   * succeeds, back to the lane if it fails) and reported `covered` for the third. Retried instead, a
   * cancel on an endpoint that keeps answering 429 (a proxy's ban on /cancel; cancel-all has a bucket
   * of its own) held queue.close(), and with it the stop, until the stop's deadline.
   * @returns whether the cancel was taken care of (else the caller re-queues it)
   */
  coverRateLimited(item: QueuedCancel): boolean {
    const fits = (a: QueuedCancelAll) => a.marketId === undefined || a.marketId === item.marketId;
    const cover =
      this.cancelAlls.find(fits) ??
      [...this.inFlightCancelAlls].find((a) => fits(a) && (a.sentSeq ?? -1) > item.seq);
    if (cover !== undefined) {
      cover.covered.push(item);
      return true;
    }
    for (const scope of [item.marketId, "*"]) {
      const done = this.#cleared.get(scope);
      if (done === undefined || done.sentSeq < item.seq) continue;
      const marketId = scope === "*" ? undefined : scope;
      for (const intent of item.intents)
        this.report({
          kind: "cancel",
          intent,
          outcome: { kind: "covered", marketId, cancelled: done.cancelled },
        });
      return true;
    }
    return false;
  }

  requeueCancelAll(item: QueuedCancelAll): void {
    this.cancelAlls.push(item);
    this.cancelAlls.sort(
      (a, b) => Number(b.marketId === undefined) - Number(a.marketId === undefined) || a.seq - b.seq,
    );
  }

  /** After a cancel-all of `scope` failed or was answered ambiguously: its cancels go singly for SUBSTITUTION_PAUSE_MS (settleCancelAll). */
  pauseSubstitution(scope: string): void {
    this.#substitutionPausedUntil.set(scope, this.#o.clock.now() + SUBSTITUTION_PAUSE_MS);
  }

  /** Whether a cancel-all may be substituted for the single cancels of `marketId` at `now`. */
  maySubstitute(marketId: string, now: number): boolean {
    for (const scope of [marketId, "*"]) {
      const until = this.#substitutionPausedUntil.get(scope);
      if (until === undefined) continue;
      // Further off than the pause itself: the clock stepped back since; the pause ends rather than last the step.
      if (now < until && until - now <= SUBSTITUTION_PAUSE_MS) return false;
      this.#substitutionPausedUntil.delete(scope);
    }
    return true;
  }

  /**
   * Re-queues a placement rejected as retryable (`answer`) when still desired and not superseded;
   * false when not. The answer stays with it (see dropPlace).
   * Nor while another placement of its quote key is in flight: that one may rest, and this one
   * sent again would rest beside it, two orders on one level (the engine never sends a second
   * placement for a level while one is unanswered, so this guards the queue on its own).
   */
  requeuePlace(item: QueuedPlace, answer: PlaceAnswer): boolean {
    if (this.closed || item.attempts > 1 || this.places.byKey(item.key) !== undefined) return false;
    for (const p of this.inFlightPlaces.values()) if (p !== item && p.key === item.key) return false;
    if (this.awaiting.has(item.intent.clientOrderId) || this.#o.stillDesired?.(item.intent) !== true)
      return false;
    item.lastAnswer = answer;
    this.places.add(item);
    this.stats.requeued++;
    this.#o.onRequeued?.(item.intent);
    return true;
  }

  /** Lane depths (inFlight is filled in by the scheduler, which owns p-queue). */
  depth(inFlight: number): QueueDepth {
    let awaiting = 0;
    for (const list of this.awaiting.values()) awaiting += list.length;
    return {
      cancelAll: this.cancelAlls.length,
      cancel: this.cancels.size,
      place: this.places.size,
      awaitingOrderId: awaiting,
      inFlight,
    };
  }

  /** Markets whose placements wait for a queued or in-flight cancel-all ("*" = every market). */
  blockedMarkets(): Set<string> {
    const out = new Set<string>();
    for (const a of this.cancelAlls) out.add(a.marketId ?? "*");
    for (const a of this.inFlightCancelAlls) out.add(a.marketId ?? "*");
    return out;
  }
}

/**
 * How long no cancel-all is substituted for a market's single cancels after a cancel-all of it failed
 * (a definite reject, or retryable answers to the last attempt) or was answered ambiguously (a
 * timeout, 500, 502, 504). An exchange that refuses every cancel-all (its body, a key's scope) then
 * gets one doomed request per market a minute, each counted, instead of the cancel-all budget's five
 * a second; the cancels go singly meanwhile.
 */
export const SUBSTITUTION_PAUSE_MS = 60_000;

/** A placement's place in line. */
type LineSpot = Pick<QueuedPlace, "seq" | "enqueuedAt">;

/** The one of two places in line that came first (undefined when neither is given). */
function older(a: LineSpot | undefined, b: LineSpot | undefined): LineSpot | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.seq <= b.seq ? a : b;
}

/** What dropPlace needs of a placement (an intent refused at intake has no queue item yet). */
export type DroppedPlace = Pick<QueuedPlace, "intent" | "lastAnswer">;

/**
 * Why a cancel of a placement taken out unsent needs no request: the placement never left, or it
 * left once and was answered with a retryable reject (the order does not exist either way).
 */
export function notSentReason(item: DroppedPlace): "placement_dropped" | "placement_rejected" {
  return item.lastAnswer === undefined ? "placement_dropped" : "placement_rejected";
}
