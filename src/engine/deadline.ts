import type { Clock } from "../core/clock.js";

/** Marker of a wait cut short by its deadline. */
export const TIMED_OUT = Symbol("timed_out");

/**
 * Waits for `p` until the clock reaches `deadline` (epoch ms): its value, or TIMED_OUT. The timer is
 * the injected Clock's, so a SimClock test or backtest decides when the deadline passes. A rejection
 * of `p` is passed on.
 * @example
 * const r = await untilDeadline(clock, queue.close(), clock.now() + 5_000);
 * if (r === TIMED_OUT) log.warn("queue did not drain");
 */
export function untilDeadline<T>(
  clock: Clock,
  p: Promise<T>,
  deadline: number,
): Promise<T | typeof TIMED_OUT> {
  return new Promise<T | typeof TIMED_OUT>((resolve, reject) => {
    const id = clock.setTimer(deadline - clock.now(), () => resolve(TIMED_OUT));
    p.then(
      (v) => {
        clock.cancelTimer(id);
        resolve(v);
      },
      (err: unknown) => {
        clock.cancelTimer(id);
        reject(err);
      },
    );
  });
}
