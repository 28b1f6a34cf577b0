import { describe, expect, it } from "vitest";
import { sleepUnlessAborted } from "../../../src/core/clock.js";
import { SimClock } from "../../../src/core/sim-clock.js";

describe("sleepUnlessAborted", () => {
  it("resolves true once the clock passes the wait, with or without a signal", async () => {
    const clock = new SimClock(0);
    const done: boolean[] = [];
    void sleepUnlessAborted(clock, 100, undefined).then((v) => done.push(v));
    void sleepUnlessAborted(clock, 100, new AbortController().signal).then((v) => done.push(v));
    clock.advanceTo(99);
    await Promise.resolve();
    expect(done).toEqual([]);
    clock.advanceTo(100);
    await Promise.resolve();
    expect(done).toEqual([true, true]);
  });

  it("resolves false as soon as the signal aborts, its timer cancelled, and at once when already aborted", async () => {
    const clock = new SimClock(0);
    const ac = new AbortController();
    const wait = sleepUnlessAborted(clock, 1_000, ac.signal);
    ac.abort();
    await expect(wait).resolves.toBe(false);
    expect(clock.nextDeadline()).toBeUndefined();
    await expect(sleepUnlessAborted(clock, 1_000, ac.signal)).resolves.toBe(false);
  });
});
