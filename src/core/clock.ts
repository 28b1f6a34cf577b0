/** Opaque handle of a scheduled timer. */
export type TimerId = number;

/**
 * Time as a port. Everything that must replay in a backtest (strategies, queue buckets, stall
 * detectors, retry back-off, reconciler schedules) takes a Clock instead of reading the wall clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once, `delayMs` from now (0 or negative: on the next opportunity). */
  setTimer(delayMs: number, fn: () => void): TimerId;
  /** Cancels a timer; unknown or fired ids are ignored. */
  cancelTimer(id: TimerId): void;
}

/**
 * Resolves after `ms` of the given clock's time. With SimClock the promise settles when the clock is
 * advanced past the deadline, which is how retry and back-off logic is tested without waiting.
 */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimer(ms, resolve);
  });
}
