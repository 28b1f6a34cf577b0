import type { Clock, TimerId } from "../../src/core/clock.js";
import type { SimClock } from "../../src/core/sim-clock.js";

/**
 * A wall clock over a SimClock's monotonic time: equal at first, then stepped by `stepMs` (an NTP
 * correction, a VM resumed after a pause). Timers keep their delays and `monotonic()` is the
 * SimClock's time (they run on a monotonic source), only `now()` jumps — as with Date.now(),
 * performance.now() and setTimeout under LiveClock.
 * @example
 * const wall = new SteppedClock(sim);
 * wall.stepMs = -600_000; // the wall clock steps back 10 min
 */
export class SteppedClock implements Clock {
  stepMs = 0;
  readonly #inner: SimClock;

  constructor(inner: SimClock) {
    this.#inner = inner;
  }

  now(): number {
    return this.#inner.now() + this.stepMs;
  }

  monotonic(): number {
    return this.#inner.now();
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    return this.#inner.setTimer(delayMs, fn);
  }

  cancelTimer(id: TimerId): void {
    this.#inner.cancelTimer(id);
  }
}
