import { type Clock, monotonicNow, type TimerId } from "../core/clock.js";
import type { ReconcileReason } from "./engine-events.js";

/** When reconciles run. */
export interface ReconcileTiming {
  /** Periodic run, counted from the end of the last run of any reason. */
  readonly intervalMs: number;
  /** Triggers within this delay are served by one run. */
  readonly debounceMs: number;
  /**
   * A run that left orders in doubt (unknown placements, cancels or orders whose state the run could
   * not settle) is followed by another after this delay, and so is the first failed run of a streak;
   * each further failure in a row doubles it, up to intervalMs (failedRetryMs). A failed run that had
   * already counted orders in doubt keeps this delay. A run whose every order in doubt was left so by
   * a read that has failed at runs before it too (its history search or lookup) backs off likewise,
   * by the read failing the fewest runs in a row (a read that keeps failing is not asked every
   * retryMs for ever; one failing for the first time is).
   */
  readonly retryMs: number;
}

/** What the scheduler tells of a failed run: its place in the streak and when the next run comes. */
export interface ReconcileFailure {
  /** Failed runs in a row, this one included. */
  readonly failures: number;
  /** Delay until the follow-up run (failedRetryMs), unless a trigger brings one sooner. */
  readonly retryInMs: number;
}

/**
 * The follow-up delay after the `failures`-th failed run in a row: retryMs, doubled for each earlier
 * failure of the streak, at most intervalMs. A failure that lasts (a key the exchange refuses for one
 * read, a route gone) is retried at the periodic pace, not every retryMs for ever; a blip is still
 * retried after retryMs.
 * @example failedRetryMs({ intervalMs: 30_000, debounceMs: 250, retryMs: 2_000 }, 3) // 8_000
 */
export function failedRetryMs(timing: ReconcileTiming, failures: number): number {
  let ms = timing.retryMs;
  for (let n = 1; n < failures && ms < timing.intervalMs; n++) ms *= 2;
  return Math.min(ms, Math.max(timing.retryMs, timing.intervalMs));
}

/**
 * What a run tells the scheduler: how many orders it left in doubt (unknown placements, and orders
 * whose state it could not settle: a cancel answered ambiguously whose lookup failed), and how many of
 * them were left so because their read failed (0 when absent).
 */
export interface ReconcileOutcome {
  readonly pending: number;
  readonly unread?: number;
  /**
   * The reads that failed, each by the order it was for (clientOrderId), so that a read failing for
   * the first time is told from one that keeps failing. Absent: the failed reads are taken as one.
   */
  readonly failing?: readonly string[] | undefined;
}

/**
 * One reconcile run. `counted` may be called (before the run settles) with its orders in doubt: should
 * the run then fail, they keep their follow-up (pendingRetryMs).
 */
export type ReconcileRun = (
  reason: ReconcileReason,
  counted: (left: ReconcileOutcome) => void,
) => Promise<ReconcileOutcome>;

/**
 * The follow-up delay for orders a run left in doubt, `stalls` being the runs in a row (this one
 * included) at which the read failing the fewest runs in a row failed, when every order in doubt was
 * left so by a failed read: retryMs while some order waits on anything else (a grace not yet over:
 * the next read may settle it, `stalls` 0), else backed off as failed runs are (failedRetryMs). A
 * history search or lookup that keeps failing is then asked at the periodic pace, not every retryMs
 * for ever, while a new ambiguous answer still brings its own run at once, and a read failing for the
 * first time (a blip: `stalls` 1) is asked again after retryMs, whatever other read keeps failing.
 * @example pendingRetryMs(timing, 0) // timing.retryMs
 */
export function pendingRetryMs(timing: ReconcileTiming, stalls: number): number {
  return stalls > 0 ? failedRetryMs(timing, stalls) : timing.retryMs;
}

/**
 * Schedules REST reconciles on the Clock: periodically, on demand (`soon`, debounced: an ambiguous
 * burst or a reconnect costs one run), and as a follow-up while orders stay in doubt (after retryMs,
 * also when the run then failed; backing off while only failed reads keep them so: pendingRetryMs)
 * or runs fail (backing off: failedRetryMs, reset by a run that succeeds). A trigger is never held back by the backoff: it brings the next run forward to its
 * debounce (timers compared on the monotonic clock, so a wall-clock step does not move them). Runs never
 * overlap: a trigger during a run asks for exactly one more run after it.
 * No ambient timers: in a backtest the SimClock decides when each run happens.
 */
export class ReconcileScheduler {
  readonly #clock: Clock;
  readonly #timing: ReconcileTiming;
  readonly #run: ReconcileRun;
  readonly #onError: (reason: ReconcileReason, err: unknown, failure: ReconcileFailure) => void;
  #periodic: TimerId | undefined;
  #delayed: { id: TimerId; at: number } | undefined;
  #running: Promise<void> | undefined;
  #again: ReconcileReason | undefined;
  #started = false;
  #stopped = false;
  #runs = 0;
  /** Failed runs in a row (0 once one succeeds). */
  #failures = 0;
  /**
   * Of each read that failed at the last run that counted its orders in doubt, the runs in a row it
   * has failed at (by clientOrderId; "" for all of a run that names none): pendingRetryMs.
   */
  #stalls: ReadonlyMap<string, number> = new Map();

  constructor(
    clock: Clock,
    timing: ReconcileTiming,
    run: ReconcileRun,
    onError: (reason: ReconcileReason, err: unknown, failure: ReconcileFailure) => void,
  ) {
    this.#clock = clock;
    this.#timing = timing;
    this.#run = run;
    this.#onError = onError;
  }

  /** Completed runs (successful or not). */
  get runs(): number {
    return this.#runs;
  }

  /** Arms the periodic timer (after the start-up run). */
  start(): void {
    this.#started = true;
    if (this.#running === undefined) this.#armPeriodic();
  }

  /** A reconcile within debounceMs (one run serves every trigger in that window). */
  soon(reason: ReconcileReason): void {
    this.#later(reason, this.#timing.debounceMs);
  }

  /** Runs now, or once more right after the run in progress; resolves when that run is done. */
  now(reason: ReconcileReason): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running !== undefined) {
      this.#again ??= reason;
      return this.#running;
    }
    this.#running = this.#loop(reason);
    return this.#running;
  }

  /** Cancels every timer; a run in progress finishes (await `idle`). */
  stop(): void {
    this.#stopped = true;
    if (this.#periodic !== undefined) this.#clock.cancelTimer(this.#periodic);
    if (this.#delayed !== undefined) this.#clock.cancelTimer(this.#delayed.id);
    this.#periodic = undefined;
    this.#delayed = undefined;
    this.#again = undefined;
  }

  /** Resolves when no run is in progress. */
  idle(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #loop(first: ReconcileReason): Promise<void> {
    let reason: ReconcileReason | undefined = first;
    while (reason !== undefined && !this.#stopped) {
      this.#again = undefined;
      let followUpMs: number | undefined;
      let counted: ReconcileOutcome | undefined;
      try {
        const left = await this.#run(reason, (n) => (counted = n));
        this.#failures = 0;
        // The failed reads are named in the count made during the run (its summary has their number).
        followUpMs = this.#pendingFollowUp({ ...left, failing: left.failing ?? counted?.failing });
      } catch (err) {
        this.#failures++;
        followUpMs = failedRetryMs(this.#timing, this.#failures);
        // A lasting failure at a later read (positions refused) must not hold an order in doubt (an
        // unresolved placement's level blocked for new quotes, a cancel that may not have happened)
        // until the backed-off run.
        const pending = counted === undefined ? undefined : this.#pendingFollowUp(counted);
        if (pending !== undefined) followUpMs = Math.min(followUpMs, pending);
        this.#onError(reason, err, { failures: this.#failures, retryInMs: followUpMs });
      }
      this.#runs++;
      // Once started, the periodic run re-armed below comes after intervalMs: a follow-up as late
      // would only run a second reconcile right behind it.
      const periodic = this.#started && !this.#stopped;
      if (followUpMs !== undefined && !(periodic && followUpMs >= this.#timing.intervalMs)) {
        this.#later("unresolved", followUpMs);
      }
      reason = this.#again;
    }
    this.#running = undefined;
    if (this.#started) this.#armPeriodic();
  }

  /**
   * The follow-up the orders a run left in doubt call for (undefined: none left); counts each failed
   * read's failures in a row. One scheduler-wide count made a read failing once (a cancel's lookup, a
   * new placement's search) wait for the backoff another read had reached (up to the periodic run).
   */
  #pendingFollowUp(left: ReconcileOutcome): number | undefined {
    const unread = left.pending > 0 ? (left.unread ?? 0) : 0;
    const failing = unread <= 0 ? [] : (left.failing ?? [""]);
    const stalls = new Map<string, number>();
    for (const id of failing) stalls.set(id, (this.#stalls.get(id) ?? 0) + 1);
    this.#stalls = stalls;
    if (left.pending <= 0) return undefined;
    const stalled = unread >= left.pending && stalls.size > 0;
    return pendingRetryMs(this.#timing, stalled ? Math.min(...stalls.values()) : 0);
  }

  #later(reason: ReconcileReason, delayMs: number): void {
    if (this.#stopped) return;
    // On the clock the timers run on (elapsed time): after a wall-clock step forward, a trigger's
    // wall instant would fall after an armed follow-up's and wait for it.
    const at = monotonicNow(this.#clock) + delayMs;
    if (this.#delayed !== undefined) {
      if (this.#delayed.at <= at) return;
      this.#clock.cancelTimer(this.#delayed.id);
    }
    const id = this.#clock.setTimer(delayMs, () => {
      this.#delayed = undefined;
      void this.now(reason);
    });
    this.#delayed = { id, at };
  }

  #armPeriodic(): void {
    if (this.#stopped) return;
    if (this.#periodic !== undefined) this.#clock.cancelTimer(this.#periodic);
    this.#periodic = this.#clock.setTimer(this.#timing.intervalMs, () => {
      this.#periodic = undefined;
      void this.now("periodic");
    });
  }
}
