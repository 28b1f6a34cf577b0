import type { Clock, TimerId } from "../core/clock.js";
import type { ReconcileReason } from "./engine-events.js";

/** When reconciles run. */
export interface ReconcileTiming {
  /** Periodic run, counted from the end of the last run of any reason. */
  readonly intervalMs: number;
  /** Triggers within this delay are served by one run. */
  readonly debounceMs: number;
  /** A run that failed or left unknown orders unresolved is followed by another after this delay. */
  readonly retryMs: number;
}

/** What a run tells the scheduler: how many unknown orders are still unresolved. */
export interface ReconcileOutcome {
  readonly pending: number;
}

/**
 * Schedules REST reconciles on the Clock: periodically, on demand (`soon`, debounced: an ambiguous
 * burst or a reconnect costs one run), and as a follow-up while unknown orders stay unresolved or a run
 * failed. Runs never overlap: a trigger during a run asks for exactly one more run after it.
 * No ambient timers: in a backtest the SimClock decides when each run happens.
 */
export class ReconcileScheduler {
  readonly #clock: Clock;
  readonly #timing: ReconcileTiming;
  readonly #run: (reason: ReconcileReason) => Promise<ReconcileOutcome>;
  readonly #onError: (reason: ReconcileReason, err: unknown) => void;
  #periodic: TimerId | undefined;
  #delayed: { id: TimerId; at: number } | undefined;
  #running: Promise<void> | undefined;
  #again: ReconcileReason | undefined;
  #started = false;
  #stopped = false;
  #runs = 0;

  constructor(
    clock: Clock,
    timing: ReconcileTiming,
    run: (reason: ReconcileReason) => Promise<ReconcileOutcome>,
    onError: (reason: ReconcileReason, err: unknown) => void,
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
      let followUp = false;
      try {
        followUp = (await this.#run(reason)).pending > 0;
      } catch (err) {
        followUp = true;
        this.#onError(reason, err);
      }
      this.#runs++;
      if (followUp) this.#later("unresolved", this.#timing.retryMs);
      reason = this.#again;
    }
    this.#running = undefined;
    if (this.#started) this.#armPeriodic();
  }

  #later(reason: ReconcileReason, delayMs: number): void {
    if (this.#stopped) return;
    const at = this.#clock.now() + delayMs;
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
