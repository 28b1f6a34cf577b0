import type { Clock, TimerId } from "../../src/core/clock.js";
import { LiveClock } from "../../src/core/live-clock.js";

/**
 * The real wall clock moved by `offsetMs`, which a test may change while it runs: a host whose
 * clock disagrees with the exchange's, or one that NTP then steps. Timers run on real time.
 * With `monotonic: true` it also has the real monotonic source a host keeps through a step (as
 * LiveClock does); without, it is a clock with no monotonic reading (see monotonicNow), as the
 * older daemon and recorder tests built it.
 * @example
 * const host = new OffsetClock(300_000, { monotonic: true }); // 5 min ahead
 * host.offsetMs = 0; // NTP steps it back
 */
export class OffsetClock implements Clock {
  offsetMs: number;
  readonly monotonic?: () => number;
  readonly #live = new LiveClock();

  constructor(offsetMs = 0, opts: { monotonic?: boolean } = {}) {
    this.offsetMs = offsetMs;
    if (opts.monotonic === true) this.monotonic = () => this.#live.monotonic();
  }

  now(): number {
    return this.#live.now() + this.offsetMs;
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    return this.#live.setTimer(delayMs, fn);
  }

  cancelTimer(id: TimerId): void {
    this.#live.cancelTimer(id);
  }
}
