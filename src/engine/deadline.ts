import type { Clock, TimerId } from "../core/clock.js";

/** Marker of a wait cut short by its deadline. */
export const TIMED_OUT = Symbol("timed_out");

/**
 * A time limit over several waits (the engine's stop), kept as ONE timer of the injected Clock armed
 * when it is set, never as an instant compared with `clock.now()`. The live clock's readings are wall
 * time, which NTP or a VM resume can step while the waits run, but its timers count elapsed time: an
 * instant re-read at each wait would stretch the limit by a step back (a 10-min step, 10 more minutes
 * of `mm run` stopping) and cut it short at a step forward (the stop's final check skipped). On the
 * timer, a step back in effect moves the deadline back by the step, exactly, and a step forward
 * changes nothing. Under a SimClock (tests, backtests) it passes when the clock is advanced to it.
 * @example
 * const d = new Deadline(clock, 5_000);
 * if ((await untilDeadline(clock, queue.close(), d)) === TIMED_OUT) log.warn("queue did not drain");
 * while (!d.passed && busy()) await d.pause(10);
 * d.end();
 */
export class Deadline {
  readonly #clock: Clock;
  #timer: TimerId | undefined;
  #passed = false;
  readonly #onPass = new Set<() => void>();

  /** Passes `ms` from now on the Clock's timers (0 or less: at the timer's next opportunity). */
  constructor(clock: Clock, ms: number) {
    this.#clock = clock;
    this.#timer = clock.setTimer(ms, () => {
      this.#timer = undefined;
      this.#passed = true;
      for (const fn of [...this.#onPass]) fn();
      this.#onPass.clear();
    });
  }

  /** Whether the time is up. */
  get passed(): boolean {
    return this.#passed;
  }

  /** Runs `fn` once when the deadline passes (at once if it has); returns the removal of `fn`. */
  onPass(fn: () => void): () => void {
    if (this.#passed) {
      fn();
      return () => undefined;
    }
    this.#onPass.add(fn);
    return () => this.#onPass.delete(fn);
  }

  /** Waits `ms` on the Clock, or less when the deadline passes first (a poll that must not overrun). */
  pause(ms: number): Promise<void> {
    if (this.#passed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#clock.cancelTimer(id);
        off();
        resolve();
      };
      const id = this.#clock.setTimer(ms, done);
      const off = this.onPass(done);
    });
  }

  /** The waits it bounded are over: clears its timer (no timer left behind); `passed` stays as it is. */
  end(): void {
    if (this.#timer !== undefined) this.#clock.cancelTimer(this.#timer);
    this.#timer = undefined;
    this.#onPass.clear();
  }
}

/**
 * Waits for `p` until `deadline` passes: its value, or TIMED_OUT. The deadline is a Deadline (the
 * one limit of several waits) or, for a single wait, an instant on the clock (epoch ms), which is
 * turned into a Deadline at once: either way the wait is measured by the Clock's timer, so a step of
 * the wall clock does not move it, and a SimClock test or backtest decides when it passes. A
 * rejection of `p` is passed on.
 * @example
 * const r = await untilDeadline(clock, queue.close(), clock.now() + 5_000);
 * if (r === TIMED_OUT) log.warn("queue did not drain");
 */
export function untilDeadline<T>(
  clock: Clock,
  p: Promise<T>,
  deadline: Deadline | number,
): Promise<T | typeof TIMED_OUT> {
  const own = typeof deadline === "number";
  const d = own ? new Deadline(clock, deadline - clock.now()) : deadline;
  return new Promise<T | typeof TIMED_OUT>((resolve, reject) => {
    const off = d.onPass(() => resolve(TIMED_OUT));
    const settle = () => {
      off();
      if (own) d.end();
    };
    p.then(
      (v) => {
        settle();
        resolve(v);
      },
      (err: unknown) => {
        settle();
        reject(err);
      },
    );
  });
}
