import type { Clock, TimerId } from "../../core/clock.js";

/** A deadline that moves each time there is progress (idleDeadline). */
export interface IdleDeadline {
  /** Resolves once no progress was seen for the idle time. */
  readonly expired: Promise<void>;
  /** Stops watching; `expired` then never resolves. */
  cancel(): void;
}

/** Progress is sampled this many times per idle period. */
const CHECKS_PER_PERIOD = 10;

/**
 * Watches `progress()` (any value that changes whenever work gets done, such as a counter of
 * completed writes) on `clock`, and resolves `expired` once it has stayed the same for `idleMs`.
 * It is sampled every tenth of `idleMs`, so expiry comes between `idleMs` and 1.1 × `idleMs` after
 * the last change. Sampling rather than re-arming a timer at each change: the changes can be one
 * per written line, thousands a second.
 * @example
 * const d = idleDeadline(clock, 30_000, () => writer.progress);
 * const gaveUp = await Promise.race([drained.then(() => false), d.expired.then(() => true)]);
 * d.cancel();
 */
export function idleDeadline(clock: Clock, idleMs: number, progress: () => number): IdleDeadline {
  const tickMs = idleMs / CHECKS_PER_PERIOD;
  let timer: TimerId | undefined;
  let seen = progress();
  let idleTicks = 0;
  const expired = new Promise<void>((resolve) => {
    const check = (): void => {
      const now = progress();
      if (now === seen) idleTicks++;
      else {
        seen = now;
        idleTicks = 0;
      }
      if (idleTicks >= CHECKS_PER_PERIOD) {
        timer = undefined;
        resolve();
      } else timer = clock.setTimer(tickMs, check);
    };
    timer = clock.setTimer(tickMs, check);
  });
  return {
    expired,
    cancel: () => {
      if (timer !== undefined) clock.cancelTimer(timer);
      timer = undefined;
    },
  };
}
