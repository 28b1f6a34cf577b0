import PQueue from "p-queue";
import type { TimerId } from "../core/clock.js";
import { ExchangeError } from "../exchange/exchange-error.js";
import type { Intent } from "./intents.js";
import { substituteCancelAlls } from "./order-queue-cancel-all.js";
import type { QueuedPlace } from "./order-queue-lanes.js";
import { isRateLimited, QueueSender } from "./order-queue-send.js";
import { failCancelUnsent, settleCancel, settleCancelAll, settlePlace } from "./order-queue-settle.js";
import { QueueState } from "./order-queue-state.js";
import {
  DEFAULT_CANCEL_SLOTS,
  type OrderQueueOptions,
  type QueueDepth,
  type QueueOp,
  type QueueStats,
} from "./order-queue-types.js";
import { endpointOf } from "./rate-budget.js";

/** Priorities handed to p-queue (they order tasks only if p-queue ever holds several at once). */
const PRIORITY: Record<QueueOp, number> = { cancel_all: 3, cancel: 2, place: 1 };

/**
 * The rate-aware order queue: takes the order manager's intents and decides when and whether each is
 * sent, never sending on an empty bucket. Rules (README "How a quote is made"):
 * - order: kill-switch cancel-all, then market cancel-alls, then cancels (FIFO), then placements by
 *   urgencyTicks (far from desired first, then oldest). Each lane spends its own bucket, so a lane
 *   whose bucket is empty does not hold back the next; a placement whose level's old quote is
 *   cancelled (the cancel done) ranks as a missing quote from then on (levelEmptied);
 * - supersede, local cancel of unsent placements, cancel-all absorption: see QueueState;
 * - cancel-all substitution: see preferCancelAll; none once closed (the stop's single cancels are its
 *   fallback for a cancel-all that did not succeed), nor for SUBSTITUTION_PAUSE_MS in a market whose
 *   cancel-all failed or was answered ambiguously (settleCancelAll);
 * - shedding: calm placements (urgencyTicks ≤ calmUrgencyTicks) beyond what the place budget can send
 *   within shedHorizonMs are dropped, calmest first; urgent ones are never shed, only delayed;
 * - resending: never for an ambiguous placement; a retryable reject (429, 503, circuit open — it did
 *   not take effect) is re-queued once if `stillDesired` says so and nothing superseded it; dropped
 *   before its second send, it is reported with that reject, never as `place_dropped` (it was sent).
 *   Cancels and cancel-alls are retried up to maxCancelAttempts on retryable answers (a repeated
 *   cancel is harmless); a 429 spends no attempt of a single cancel until the queue closes, and a
 *   cancel-all of its scope that clears its order takes a 429'd cancel over (settleCancel).
 * - slots: placements use at most `concurrency`; `cancelSlots` more are for cancels and cancel-alls
 *   alone, so a kill switch never waits for a slow placement's answer; a placement still being
 *   signed when a cancel-all of its market arrives is withdrawn; a cancel answered 5xx (not 429) is
 *   retried after 200 ms, doubling to 10 s, as the spec's retry guidance says.
 * Decisions are taken as late as possible (at send time), so they see the whole backlog. p-queue
 * bounds the requests in flight; every timing decision comes from the injected Clock.
 * @example
 * const q = new OrderQueue({ clock, port, sign, budget, onReport: (r) => manager.onQueueReport(r) });
 * q.enqueueAll(manager.diff(desired));
 */
export class OrderQueue {
  readonly #o: OrderQueueOptions;
  readonly #s: QueueState;
  readonly #sender: QueueSender;
  readonly #pq: PQueue;
  readonly #concurrency: number;
  readonly #cancelSlots: number;
  #timer: { id: TimerId; at: number } | undefined;
  #pumping = false;
  #pumpAgain = false;
  #closing: (() => void) | undefined;
  #closed: Promise<void> | undefined;

  constructor(opts: OrderQueueOptions) {
    this.#o = opts;
    this.#s = new QueueState(opts);
    this.#concurrency = opts.concurrency ?? 16;
    this.#cancelSlots = opts.cancelSlots ?? DEFAULT_CANCEL_SLOTS;
    this.#pq = new PQueue({ concurrency: this.#concurrency + this.#cancelSlots });
    // p-queue frees a slot a microtask after a task settles: pump then, not from inside the task.
    this.#pq.on("next", () => this.#pump());
    this.#sender = new QueueSender({
      clock: opts.clock,
      port: opts.port,
      sign: opts.sign,
      budget: opts.budget,
      rateLimitState: opts.rateLimitState,
      metrics: opts.metrics,
      defaultRetryAfterMs: opts.defaultRetryAfterMs ?? 1_000,
      onSent: (op) => this.#s.stats.sent[op]++,
      onRateLimited: () => this.#s.stats.rateLimited++,
    });
  }

  /** Queues one intent and sends what the budget allows now. */
  enqueue(intent: Intent): void {
    this.enqueueAll([intent]);
  }

  /** Queues a batch (one diff) before sending anything, so priorities apply across the batch. */
  enqueueAll(intents: Iterable<Intent>): void {
    this.#s.intakeAll(intents);
    this.#pump();
  }

  /** Lane depths now. */
  depth(): QueueDepth {
    return this.#s.depth(this.#pq.pending + this.#pq.size);
  }

  /**
   * Milliseconds the longest-waiting queued placement has waited (on the queue's clock), 0 when none
   * waits. mm_queue_wait_seconds sees a placement only once it is sent, so a level starved under a
   * saturated place budget showed nowhere while it starved; this is its scrape-time reading.
   */
  oldestPlacementAgeMs(): number {
    const at = this.#s.places.oldestEnqueuedAt();
    // A wall clock stepped back could put the enqueue in the future: an age is never negative.
    return at === undefined ? 0 : Math.max(0, this.#o.clock.now() - at);
  }

  /** Running totals: sent per op, 429s, shed, superseded, cancelled unsent, substitutions, re-queued. */
  get stats(): Readonly<QueueStats> {
    return this.#s.stats;
  }

  /** Whether cancel-all is used (false after the exchange answered 501). */
  get cancelAllAvailable(): boolean {
    return this.#s.cancelAllAvailable;
  }

  /**
   * The first cancel or cancel-all the exchange refused for a scope the key lacks (403
   * `api_key_scope_missing` naming orders:write, or no scope), undefined while none was. Every other cancel with this
   * key would be refused too: once closed, the queue fails its queued cancels and cancel-alls with
   * this refusal, unsent, so that close() resolves at once instead of spending the stop's budget at
   * the cancel rate on requests that cannot succeed.
   */
  get cancelsRefused(): ExchangeError | undefined {
    return this.#s.cancelsRefused;
  }

  /**
   * Stops sending placements (queued ones are dropped as `closed`, later ones likewise) and resolves
   * once every queued cancel and cancel-all has been answered. On shutdown, enqueue the kill switch first.
   */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#closing = resolve;
      this.#s.closed = true;
      for (const p of this.#s.places.removeWhere(() => true)) this.#s.dropPlace(p, "closed");
      this.#pump();
    });
    return this.#closed;
  }

  /** Decides and sends whatever the budget and the concurrency limit allow now; re-entrant calls coalesce. */
  #pump(): void {
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#pumpAgain = false;
        this.#pumpOnce();
      } while (this.#pumpAgain);
    } finally {
      this.#pumping = false;
    }
    const depth = this.depth();
    this.#o.metrics?.depth?.(depth);
    if (this.#closing !== undefined && Object.values(depth).every((n) => n === 0)) {
      if (this.#s.inFlightPlaces.size === 0) {
        this.#closing();
        this.#closing = undefined;
      }
    }
  }

  #pumpOnce(): void {
    const s = this.#s;
    const { budget } = this.#o;
    const now = this.#o.clock.now();
    if (!s.cancelAllAvailable && s.cancelAlls.length > 0) this.#failCancelAlls();
    if (s.closed && s.cancelsRefused !== undefined) this.#failRefusedCancels(s.cancelsRefused);
    // Once closed (shutdown), a single cancel is the stop's fallback for a cancel-all that did not
    // succeed: folding it back into a cancel-all would repeat what just failed.
    if (this.#o.restingOrders !== undefined && !s.closed) {
      const onSubstituted = this.#o.metrics?.substituted?.bind(this.#o.metrics);
      substituteCancelAlls({ state: s, budget, restingOrders: this.#o.restingOrders, now, onSubstituted });
    }
    const keep = budget.capacityWithin("place", now, this.#o.shedHorizonMs ?? 1_000);
    for (const p of s.places.shedTail(keep, this.#o.calmUrgencyTicks ?? 2)) s.dropPlace(p, "shed");
    const blocked = s.blockedMarkets();
    // A token's placement waits while a cancel of that token waits to be sent: a replacement never
    // goes out ahead of the cancel of what it replaces. Without this, when the place budget outruns
    // the cancel budget (a whitelisted IP, a low rateLimitPerMin), replaced orders piled up resting.
    const eligible = (p: QueuedPlace) =>
      !blocked.has("*") && !blocked.has(p.intent.marketId) && !s.cancels.hasToken(p.intent.tokenId);
    while (
      this.#pq.pending + this.#pq.size < this.#concurrency + this.#cancelSlots &&
      this.#dispatchNext(now, eligible)
    ) {}
    this.#scheduleWake(now, eligible);
  }

  /** Starts the highest-priority item whose bucket has a token now; false when there is none. */
  #dispatchNext(now: number, eligible: (p: QueuedPlace) => boolean): boolean {
    const s = this.#s;
    const { budget } = this.#o;
    const all = s.cancelAlls[0];
    if (all !== undefined && budget.available("cancel_all", now) >= 1) {
      s.cancelAlls.shift();
      s.inFlightCancelAlls.add(all);
      all.sentSeq = s.nextSeq();
      this.#start("cancel_all", now, all, async () => {
        const res = await this.#sender.cancelAll(all);
        s.inFlightCancelAlls.delete(all);
        this.#backOff("cancel_all", all.attempts, res);
        settleCancelAll(s, all, res);
      });
      return true;
    }
    const cancel = s.cancels.first();
    if (cancel !== undefined && budget.available("cancel", now) >= 1) {
      s.cancels.remove(cancel);
      s.inFlightCancels.add(cancel.clientOrderId);
      this.#start("cancel", now, cancel, async () => {
        const res = await this.#sender.cancel(cancel);
        s.inFlightCancels.delete(cancel.clientOrderId);
        this.#backOff("cancel", cancel.attempts, res);
        settleCancel(s, cancel, res);
      });
      return true;
    }
    if (budget.available("place", now) < 1) return false;
    if (this.#pq.pending + this.#pq.size >= this.#concurrency) return false;
    const place = s.places.first(eligible);
    if (place === undefined) return false;
    s.places.remove(place);
    s.inFlightPlaces.set(place.intent.clientOrderId, place);
    // Withdrawn before it leaves if, while it is being signed, a newer one for its key or a cancel arrives.
    const stillWanted = () => {
      if (s.places.byKey(place.key) !== undefined || s.awaiting.has(place.intent.clientOrderId)) return false;
      const b = s.blockedMarkets();
      if (b.has("*") || b.has(place.intent.marketId)) {
        place.withdrawnBy = "cancel_all";
        return false;
      }
      return true;
    };
    this.#start("place", now, place, async () =>
      settlePlace(s, place, await this.#sender.place(place, stillWanted)),
    );
    return true;
  }

  /** A 5xx-retryable answer (not a 429, which blocks until Retry-After) delays the retry: 200 ms doubling. */
  #backOff(op: "cancel" | "cancel_all", attempts: number, res: { ok: boolean; error?: ExchangeError }): void {
    if (res.ok || res.error === undefined || res.error.outcome !== "retryable" || isRateLimited(res.error))
      return;
    this.#o.budget.block(op, this.#o.clock.now(), Math.min(10_000, 200 * 2 ** Math.max(0, attempts - 1)));
  }

  /** Reserves the token now (so the send can never find the bucket empty) and hands the send to p-queue. */
  #start(
    op: QueueOp,
    now: number,
    item: { attempts: number; enqueuedAt: number },
    run: () => Promise<void>,
  ): void {
    this.#o.budget.reserve(op, now);
    item.attempts++;
    this.#o.metrics?.waited?.(op, now - item.enqueuedAt);
    this.#pq.add(run, { priority: PRIORITY[op] }).catch((err: unknown) => {
      // A bug in settlement: surface it rather than lose it in the promise chain.
      queueMicrotask(() => {
        throw err;
      });
    });
  }

  /** One Clock timer at the earliest time a waiting lane's bucket refills (answers pump on their own). */
  #scheduleWake(now: number, eligible: (p: QueuedPlace) => boolean): void {
    const s = this.#s;
    const { budget } = this.#o;
    let at = Number.POSITIVE_INFINITY;
    if (s.cancelAlls.length > 0) at = Math.min(at, budget.nextAvailableAt("cancel_all", now));
    if (s.cancels.size > 0) at = Math.min(at, budget.nextAvailableAt("cancel", now));
    if (s.places.first(eligible) !== undefined) at = Math.min(at, budget.nextAvailableAt("place", now));
    if (this.#timer?.at === at) return;
    if (this.#timer !== undefined) this.#o.clock.cancelTimer(this.#timer.id);
    this.#timer = undefined;
    if (!Number.isFinite(at) || at <= now) return;
    const id = this.#o.clock.setTimer(at - now, () => {
      this.#timer = undefined;
      this.#pump();
    });
    this.#timer = { id, at };
  }

  /**
   * The key refused cancels for their scope and the queue is closing: every queued cancel-all fails
   * with that refusal (giving its covered cancels back), then every queued cancel, none sent. While
   * the engine runs they are not failed so: a requote would queue them again at once (the daemon
   * stops on the refusal anyway, DaemonRun.unauthorized).
   */
  #failRefusedCancels(error: ExchangeError): void {
    const s = this.#s;
    const alls = s.cancelAlls;
    s.cancelAlls = [];
    for (const item of alls) settleCancelAll(s, item, { ok: false, error }, false);
    for (let c = s.cancels.first(); c !== undefined; c = s.cancels.first()) {
      s.cancels.remove(c);
      failCancelUnsent(s, c, error);
    }
  }

  /** With cancel-all off (a 501, or configured so), queued cancel-alls fail and give back their cancels. */
  #failCancelAlls(): void {
    const error = new ExchangeError({
      code: "not_implemented",
      message: "cancel-all is not available on this exchange",
      outcome: "rejected",
      endpoint: endpointOf("cancel_all"),
      httpStatus: 501,
    });
    const items = this.#s.cancelAlls;
    this.#s.cancelAlls = [];
    for (const item of items) settleCancelAll(this.#s, item, { ok: false, error }, false);
  }
}
