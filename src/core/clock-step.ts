/**
 * A step back of the clock longer than this is the wall clock being corrected (NTP after a clock
 * that ran ahead, a VM resumed), not the jitter of one reading against another (a stale `now`
 * captured before an await). One rule for every component that keeps instants.
 */
export const CLOCK_STEP_BACK_MS = 1_000;

/**
 * Watches one component's clock readings for steps back. A component that keeps instants (release
 * times, a cool-down's end, a last-seen time) moves them back by the step it is told of, so that they
 * come due after the same elapsed time; left as they were, they would come due only once the clock
 * caught up again — the step's length, minutes maybe, with the component stuck. Steps of at most
 * CLOCK_STEP_BACK_MS are not reported, so that no instant ever moves earlier on mere jitter.
 * @example
 * const watch = new ClockStepWatch();
 * const step = watch.follow(now); // 0, or how far the clock went back since the previous reading
 * if (step > 0) endsAt -= step;
 */
export class ClockStepWatch {
  #latest = Number.NEGATIVE_INFINITY;

  /** Notes a reading; returns how far the clock stepped back since the previous one, or 0. */
  follow(now: number): number {
    const step = this.#latest - now;
    this.#latest = now;
    return step > CLOCK_STEP_BACK_MS ? step : 0;
  }
}
