import type { Clock, TimerId } from "../core/clock.js";

/**
 * Runs the subscriptions check (sync.ts audit: list_subscriptions against what we confirmed) on
 * each link every `intervalMs`, jittered uniformly into [¾, 1¼] of it per round so that links
 * opened together do not send their lists together. The drop signs (a get_book_snapshot or an
 * update_subscription refused invalid_params) come only from a book something probes; a quiet
 * book the stall watch never judges silent would keep a subscription the server dropped, unseen.
 * A link's timer is armed when it opens (re-armed at each reconnect: the resubscribe just made
 * everything fresh) and runs on the injected Clock; stop() cancels them all (close, fatal), and
 * `intervalMs` 0 arms nothing.
 * @example const p = new PeriodicAudit(clock, 60_000, Math.random, (link) => void sync.audit(link));
 */
export class PeriodicAudit {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #random: () => number;
  readonly #run: (link: number) => void;
  readonly #timers = new Map<number, TimerId>();
  #stopped = false;

  constructor(clock: Clock, intervalMs: number, random: () => number, run: (link: number) => void) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#random = random;
    this.#run = run;
  }

  /** True while checks are scheduled (an interval > 0, not stopped). */
  get active(): boolean {
    return this.#intervalMs > 0 && !this.#stopped;
  }

  /** Link `link` opened: its next check is one (jittered) interval from now. */
  arm(link: number): void {
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

  /** Cancels every check for good. */
  stop(): void {
    this.#stopped = true;
    for (const link of [...this.#timers.keys()]) this.#cancel(link);
  }

  #cancel(link: number): void {
    const t = this.#timers.get(link);
    if (t !== undefined) this.#clock.cancelTimer(t);
    this.#timers.delete(link);
  }
}
