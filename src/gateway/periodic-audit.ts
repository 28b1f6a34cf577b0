import type { Clock, TimerId } from "../core/clock.js";

/**
 * How many check periods the checks pause for once the server showed its list wrong (a sid it
 * left out was still held): a wrong list then costs one resubscribe of what it leaves out per this
 * many periods (60 s checks: one an hour), rather than one a period or none for the life of the
 * process (a list wrong only for a while, say while the server restarted, would end the checks
 * for good).
 */
export const LIST_WRONG_PAUSE_PERIODS = 60;

/**
 * Runs the subscriptions check (sync.ts audit: list_subscriptions against what we confirmed) on
 * each link every `intervalMs`, jittered uniformly into [¾, 1¼] of it per round so that links
 * opened together do not send their lists together. The drop signs (a get_book_snapshot or an
 * update_subscription refused invalid_params) come only from a book something probes; a quiet
 * book the stall watch never judges silent would keep a subscription the server dropped, unseen.
 * A link's timer is armed when it opens (re-armed at each reconnect: the resubscribe just made
 * everything fresh) and runs on the injected Clock; pause() holds every link's checks off for a
 * while (then each link armed so far is armed again), stop() cancels them all for good (close,
 * fatal), and `intervalMs` 0 arms nothing. `onActive` hears each change of `active` (a gauge).
 * @example const p = new PeriodicAudit(clock, 60_000, Math.random, (link) => void sync.audit(link));
 */
export class PeriodicAudit {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #random: () => number;
  readonly #run: (link: number) => void;
  readonly #onActive: (active: boolean) => void;
  readonly #timers = new Map<number, TimerId>();
  /** Links armed at least once: re-armed when a pause ends. */
  readonly #links = new Set<number>();
  /** The timer ending the current pause, if paused. */
  #resume: TimerId | undefined;
  #stopped = false;

  constructor(
    clock: Clock,
    intervalMs: number,
    random: () => number,
    run: (link: number) => void,
    onActive: (active: boolean) => void = () => undefined,
  ) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#random = random;
    this.#run = run;
    this.#onActive = onActive;
  }

  /** True while checks are scheduled (an interval > 0, neither paused nor stopped). */
  get active(): boolean {
    return this.#intervalMs > 0 && !this.#stopped && this.#resume === undefined;
  }

  /** How long pause() holds the checks off: LIST_WRONG_PAUSE_PERIODS intervals. */
  get pauseMs(): number {
    return this.#intervalMs * LIST_WRONG_PAUSE_PERIODS;
  }

  /** Link `link` opened: its next check is one (jittered) interval from now (after a pause's end). */
  arm(link: number): void {
    if (this.#intervalMs > 0 && !this.#stopped) this.#links.add(link);
    if (!this.active) return;
    this.#cancel(link);
    const r = Math.min(Math.max(this.#random(), 0), 1);
    const delay = Math.round(this.#intervalMs * (0.75 + 0.5 * r));
    this.#timers.set(
      link,
      this.#clock.setTimer(delay, () => {
        this.#timers.delete(link);
        if (!this.active) return;
        this.#run(link);
        this.arm(link);
      }),
    );
  }

  /**
   * Holds every link's checks off for `pauseMs`, then arms each link again; false (nothing done)
   * when not active (already paused, stopped, or off).
   */
  pause(): boolean {
    if (!this.active) return false;
    for (const link of [...this.#timers.keys()]) this.#cancel(link);
    this.#resume = this.#clock.setTimer(this.pauseMs, () => {
      this.#resume = undefined;
      this.#onActive(true);
      for (const link of this.#links) this.arm(link);
    });
    this.#onActive(false);
    return true;
  }

  /** Cancels every check for good. */
  stop(): void {
    const was = this.active;
    this.#stopped = true;
    if (this.#resume !== undefined) this.#clock.cancelTimer(this.#resume);
    this.#resume = undefined;
    for (const link of [...this.#timers.keys()]) this.#cancel(link);
    if (was) this.#onActive(false);
  }

  #cancel(link: number): void {
    const t = this.#timers.get(link);
    if (t !== undefined) this.#clock.cancelTimer(t);
    this.#timers.delete(link);
  }
}
