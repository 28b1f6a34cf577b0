import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { Deadline, TIMED_OUT, untilDeadline } from "../../../src/engine/deadline.js";
import { SteppedClock } from "../../support/stepped-clock.js";

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

describe("Deadline: a time limit kept on the Clock's timer, not on its readings", () => {
  it("passes after its time has elapsed whichever way the wall clock steps meanwhile", async () => {
    for (const stepMs of [-600_000, 600_000]) {
      const sim = new SimClock(1_000_000);
      const wall = new SteppedClock(sim);
      const d = new Deadline(wall, 5_000);
      const r = untilDeadline(wall, never<string>(), d);
      sim.advanceBy(1_000);
      wall.stepMs = stepMs;
      // A wait begun after the step ends at the same deadline, not 10 min later or at once.
      const later = untilDeadline(wall, never<string>(), d);
      sim.advanceBy(3_999);
      expect(d.passed).toBe(false);
      sim.advanceBy(1);
      expect(d.passed).toBe(true);
      expect(await r).toBe(TIMED_OUT);
      expect(await later).toBe(TIMED_OUT);
    }
  });

  it("a pause ends early when the deadline passes, and nothing is left on the clock", async () => {
    const sim = new SimClock(0);
    const d = new Deadline(sim, 25);
    const ended: number[] = [];
    while (!d.passed) {
      const p = d.pause(10).then(() => ended.push(sim.now()));
      sim.advanceTo(sim.nextDeadline() ?? sim.now());
      await p;
    }
    expect(ended).toEqual([10, 20, 25]);
    await d.pause(10); // passed: at once
    d.end();
    expect(sim.pending).toBe(0);
  });

  it("a value in time wins; end() clears the timer of a deadline that never passed", async () => {
    const sim = new SimClock(0);
    const d = new Deadline(sim, 100);
    expect(await untilDeadline(sim, Promise.resolve("done"), d)).toBe("done");
    expect(d.passed).toBe(false);
    d.end();
    expect(sim.pending).toBe(0);
    sim.advanceBy(1_000);
    expect(d.passed).toBe(false);
  });

  it("an instant given for a single wait is measured on the timer too, and leaves no timer", async () => {
    const sim = new SimClock(1_000_000);
    const wall = new SteppedClock(sim);
    const r = untilDeadline(wall, never<string>(), wall.now() + 2_000);
    wall.stepMs = -600_000;
    sim.advanceBy(2_000);
    expect(await r).toBe(TIMED_OUT);
    expect(await untilDeadline(wall, Promise.resolve(7), wall.now() + 2_000)).toBe(7);
    expect(sim.pending).toBe(0);
  });
});
