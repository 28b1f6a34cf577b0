/** Opaque handle of a scheduled timer. */
export type TimerId = number;

/**
 * Time as a port. Everything that must replay in a backtest (strategies, queue buckets, stall
 * detectors, retry back-off, reconciler schedules) takes a Clock instead of reading the wall clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch: the wall clock, which NTP or a VM resume may step. */
  now(): number;
  /**
   * Milliseconds on a clock that never steps (arbitrary origin): for elapsed time that must not
   * jump with the wall clock. Absent on a clock whose `now()` never steps (SimClock): see monotonicNow.
   */
  monotonic?(): number;
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

/**
 * Resolves true after `ms` of the clock's time, or false as soon as `signal` aborts (at once if it
 * already has), its timer then cancelled: a wait a closing client or an abandoned request ends early.
 * @example if (!(await sleepUnlessAborted(clock, waitMs, closed))) throw clientClosedError(endpoint);
 */
export function sleepUnlessAborted(
  clock: Clock,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clock.cancelTimer(timer);
      resolve(false);
    };
    const timer = clock.setTimer(ms, () => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The clock's monotonic reading, or its `now()` when it has none (a clock that never steps).
 * @example const t0 = monotonicNow(clock); … const elapsedMs = monotonicNow(clock) - t0;
 */
export function monotonicNow(clock: Clock): number {
  return clock.monotonic === undefined ? clock.now() : clock.monotonic();
}

/**
 * The clock's monotonic reading as a function, or undefined when it has none: for components that
 * keep a second, elapsed-time stamp only where the wall clock can step (and save the cost elsewhere).
 * @example new OrderStore({ monotonic: monotonicSource(clock) })
 */
export function monotonicSource(clock: Clock): (() => number) | undefined {
  return clock.monotonic === undefined ? undefined : () => monotonicNow(clock);
}
