import type { Clock, TimerId } from "../../../src/core/clock.js";
import { LiveClock } from "../../../src/core/live-clock.js";

/**
 * The wall clock moved by a fixed offset: a host whose clock disagrees with the exchange's (one
 * side of a pair of machines whose clocks disagree). Timers run on the real clock.
 */
export class OffsetClock implements Clock {
  readonly #inner = new LiveClock();
  readonly #offsetMs: number;

  constructor(offsetMs: number) {
    this.#offsetMs = offsetMs;
  }

  now(): number {
    return this.#inner.now() + this.#offsetMs;
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    return this.#inner.setTimer(delayMs, fn);
  }

  cancelTimer(id: TimerId): void {
    this.#inner.cancelTimer(id);
  }
}
