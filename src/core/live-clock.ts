import type { Clock, TimerId } from "./clock.js";

/** The longest delay Node's setTimeout honours (2^31 − 1 ms, 24.8 days); beyond it, it fires after 1 ms. */
export const MAX_SET_TIMEOUT_MS = 2_147_483_647;

/** Options of a LiveClock. */
export interface LiveClockOptions {
  /** Longest delay given to one setTimeout (default MAX_SET_TIMEOUT_MS); longer waits chain several. */
  readonly maxTimerMs?: number;
}

/**
 * The wall clock. This file is the one sanctioned reader of ambient time in the layers that must
 * replay; everything else receives a Clock.
 */
export class LiveClock implements Clock {
  #timers = new Map<TimerId, NodeJS.Timeout>();
  #nextId = 1;
  readonly #maxTimerMs: number;

  constructor(opts: LiveClockOptions = {}) {
    this.#maxTimerMs = opts.maxTimerMs ?? MAX_SET_TIMEOUT_MS;
  }

  now(): number {
    return Date.now();
  }

  /** performance.now(): the process's monotonic clock, which NTP corrections and steps do not move. */
  monotonic(): number {
    return performance.now();
  }

  /**
   * Runs `fn` after `delayMs`. A delay beyond setTimeout's limit is taken in steps of at most that
   * limit under the same id: given to setTimeout whole, it fired after 1 ms (a 30-day renewal timer
   * firing at once, re-armed, firing again: a timer every millisecond).
   */
  setTimer(delayMs: number, fn: () => void): TimerId {
    const id = this.#nextId++;
    this.#arm(id, Math.max(0, delayMs), fn);
    return id;
  }

  cancelTimer(id: TimerId): void {
    const handle = this.#timers.get(id);
    if (handle !== undefined) {
      clearTimeout(handle);
      this.#timers.delete(id);
    }
  }

  #arm(id: TimerId, remainingMs: number, fn: () => void): void {
    const stepMs = Math.min(remainingMs, this.#maxTimerMs);
    const handle = setTimeout(() => {
      if (remainingMs > stepMs) {
        this.#arm(id, remainingMs - stepMs, fn);
        return;
      }
      this.#timers.delete(id);
      fn();
    }, stepMs);
    // A pending back-off or watchdog must not keep a finished process alive.
    handle.unref();
    this.#timers.set(id, handle);
  }
}
