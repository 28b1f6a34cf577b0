import type { Clock, TimerId } from "../core/clock.js";
import type { RiskGuard } from "../risk/guard.js";

/** What the watch reads of the risk guard. */
export type HaltState = Pick<RiskGuard, "errorHalted" | "errorHaltedUntil">;

/**
 * Requotes every token once the error-rate halt has ended, checked against the guard when the
 * timer fires. The halt's end is a wall-clock instant while timers run on monotonic time: after the
 * clock stepped back, the guard moves the end back by the step it saw, but the time between its last
 * reading and the step is unseen, so the halt can still hold when a timer set for its end fires.
 * Without another look, nothing would requote a quiet market until some event came: this watch
 * looks again, until the halt is over.
 */
export class HaltEndWatch {
  readonly #clock: Clock;
  readonly #risk: HaltState;
  readonly #requoteAll: () => void;
  #timer: TimerId | undefined;
  #stopped = false;

  constructor(clock: Clock, risk: HaltState, requoteAll: () => void) {
    this.#clock = clock;
    this.#risk = risk;
    this.#requoteAll = requoteAll;
  }

  /**
   * Watches the running halt (no-op when it is watched already, or after stop). A halt already over
   * by now (a cool-down of a few ms, spent while the kill switch was sent) is requoted at once.
   */
  arm(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    const now = this.#clock.now();
    if (!this.#risk.errorHalted(now)) {
      this.#requoteAll();
      return;
    }
    this.#timer = this.#clock.setTimer(this.#risk.errorHaltedUntil - now + 1, () => {
      this.#timer = undefined;
      if (this.#risk.errorHalted(this.#clock.now())) this.arm();
      else this.#requoteAll();
    });
  }

  /** Stops watching (engine stop). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
  }
}
