import type { SimClock } from "../../core/sim-clock.js";
import { BacktestError } from "../errors.js";

/**
 * Lets everything the last event set off run to completion, as far as it does not wait for
 * simulated time: resolves only once the microtask queue has drained (promise continuations,
 * queueMicrotask), however long the chains. This is scheduling, not time: the simulated clock alone
 * says what time it is.
 *
 * How: a microtask queues a process.nextTick, and Node runs ticks only once the microtask queue is
 * empty (after its checkpoint, or between runMicrotasks rounds); the first hop makes that hold
 * whatever context the caller is in. It drains exactly what a setImmediate turn drained for the
 * simulation, whose code schedules only with promises, queueMicrotask and the SimClock (no
 * process.nextTick, no real timers: ambient timers are banned from the pure layers), at about a
 * fifth of the cost: a setImmediate turn also polls for I/O, a system call per event replayed.
 */
export function settle(): Promise<void> {
  return new Promise<void>((resolve) => queueMicrotask(() => process.nextTick(resolve)));
}

/**
 * Moves a SimClock forward while letting the engine's promise chains run in between: timers fire
 * one deadline at a time, each followed by a settle, so a reply scheduled `latency` ms ahead is
 * seen at exactly that simulated time, before anything later.
 */
export class Pump {
  readonly clock: SimClock;
  /** Timer deadlines fired so far (a measure of the simulation's own work). */
  steps = 0;

  constructor(clock: SimClock) {
    this.clock = clock;
  }

  /** Fires every timer due by `t` (in order, settling after each), then sets the clock to `t`. */
  async advanceTo(t: number): Promise<void> {
    const clock = this.clock;
    await settle();
    for (;;) {
      const next = clock.nextDeadline();
      if (next === undefined || next > t) break;
      clock.advanceTo(next);
      this.steps++;
      await settle();
    }
    if (t > clock.now()) clock.advanceTo(t);
  }

  /**
   * Runs the clock timer by timer until `p` settles; throws `backtest_stalled` when nothing is
   * scheduled that could settle it, or when it takes longer than `limitMs` of simulated time.
   */
  async until<T>(p: Promise<T>, limitMs: number): Promise<T> {
    let done = false;
    const watched = p.finally(() => {
      done = true;
    });
    watched.catch(() => {});
    const deadline = this.clock.now() + limitMs;
    await settle();
    while (!done) {
      const next = this.clock.nextDeadline();
      if (next === undefined || next > deadline) {
        throw new BacktestError(
          "backtest_stalled",
          "the engine waits for something simulated time cannot bring",
          {
            atMs: this.clock.now(),
            limitMs,
          },
        );
      }
      this.clock.advanceTo(next);
      this.steps++;
      await settle();
    }
    return p;
  }
}
