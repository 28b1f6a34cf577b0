import type { Clock, TimerId } from "./clock.js";

/**
 * The wall clock. This file is the one sanctioned reader of ambient time in the layers that must
 * replay; everything else receives a Clock.
 */
export class LiveClock implements Clock {
  #timers = new Map<TimerId, NodeJS.Timeout>();
  #nextId = 1;

  now(): number {
    return Date.now();
  }

  /** performance.now(): the process's monotonic clock, which NTP corrections and steps do not move. */
  monotonic(): number {
    return performance.now();
  }

  setTimer(delayMs: number, fn: () => void): TimerId {
    const id = this.#nextId++;
    const handle = setTimeout(
      () => {
        this.#timers.delete(id);
        fn();
      },
      Math.max(0, delayMs),
    );
    // A pending back-off or watchdog must not keep a finished process alive.
    handle.unref();
    this.#timers.set(id, handle);
    return id;
  }

  cancelTimer(id: TimerId): void {
    const handle = this.#timers.get(id);
    if (handle !== undefined) {
      clearTimeout(handle);
      this.#timers.delete(id);
    }
  }
}
