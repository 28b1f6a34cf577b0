import type { Clock } from "../../src/core/clock.js";

/**
 * A wall clock the test sets by hand (`t`), backwards too, for code that reads the time but sets no
 * timers (the recorder's writer without drainIdleMs): a timer is a test error.
 * @example const wall = new SetClock(T0); wall.t -= 3_600_000; // a 1-hour step back
 */
export class SetClock implements Clock {
  t: number;
  constructor(t0: number) {
    this.t = t0;
  }
  now(): number {
    return this.t;
  }
  setTimer(): number {
    throw new Error("this clock sets no timers: the code under test was not expected to set one");
  }
  cancelTimer(): void {}
}
