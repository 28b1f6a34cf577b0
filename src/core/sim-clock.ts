import type { Clock, TimerId } from "./clock.js";

interface Timer {
  readonly id: TimerId;
  readonly at: number;
  readonly fn: () => void;
}

/**
 * A clock that moves only when told to. Timers fire in deadline order, ties in scheduling order,
 * with `now()` equal to each timer's deadline while it runs. Used by the backtest and by tests.
 * @example
 * const clock = new SimClock(0);
 * clock.setTimer(100, () => console.log(clock.now())); // prints 100
 * clock.advanceTo(250);
 */
export class SimClock implements Clock {
  #now: number;
  #nextId = 1;
  // Kept sorted by (at, id); timers are few per tick, so insertion sort beats a heap's constant.
  #timers: Timer[] = [];

  constructor(startMs = 0) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    const id = this.#nextId++;
    const timer: Timer = { id, at: this.#now + Math.max(0, delayMs), fn };
    let i = this.#timers.length;
    while (i > 0 && (this.#timers[i - 1] as Timer).at > timer.at) i--;
    this.#timers.splice(i, 0, timer);
    return id;
  }

  cancelTimer(id: TimerId): void {
    const i = this.#timers.findIndex((t) => t.id === id);
    if (i >= 0) this.#timers.splice(i, 1);
  }

  /** Number of timers still scheduled. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Deadline of the earliest timer, or undefined when none is scheduled. */
  nextDeadline(): number | undefined {
    return this.#timers[0]?.at;
  }

  /**
   * Moves time forward to `t`, firing every timer due on the way (including timers those timers
   * schedule, if due by `t`). Time never goes backwards.
   */
  advanceTo(t: number): void {
    if (t < this.#now) throw new RangeError(`SimClock cannot go back from ${this.#now} to ${t}`);
    for (;;) {
      const next = this.#timers[0];
      if (next === undefined || next.at > t) break;
      this.#timers.shift();
      this.#now = next.at;
      next.fn();
    }
    this.#now = t;
  }

  /** Moves time forward by `ms`. */
  advanceBy(ms: number): void {
    this.advanceTo(this.#now + ms);
  }

  /** Fires the earliest timer only, moving time to its deadline; false when none is scheduled. */
  step(): boolean {
    const next = this.#timers[0];
    if (next === undefined) return false;
    this.advanceTo(next.at);
    return true;
  }
}
