import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { HaltEndWatch, type HaltState } from "../../../src/engine/halt-end.js";

/** A halt that runs until `until` on the clock. */
function haltUntil(until: number): HaltState {
  return {
    errorHalted: (now: number) => now < until,
    get errorHaltedUntil() {
      return until;
    },
  };
}

describe("HaltEndWatch", () => {
  it("requotes once, just after the halt's end", () => {
    const clock = new SimClock(1_000);
    let requotes = 0;
    const w = new HaltEndWatch(clock, haltUntil(61_000), () => requotes++);
    w.arm();
    w.arm(); // already watched
    clock.advanceTo(61_000);
    expect(requotes).toBe(0);
    clock.advanceTo(61_001);
    expect(requotes).toBe(1);
    clock.advanceTo(200_000);
    expect(requotes).toBe(1);
  });

  it("requotes at once a halt already over when armed (a cool-down of a few ms)", () => {
    const clock = new SimClock(1_000);
    let requotes = 0;
    const w = new HaltEndWatch(clock, haltUntil(1_000), () => requotes++);
    w.arm();
    expect(requotes).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it("does nothing once stopped: no timer armed, none left", () => {
    const clock = new SimClock(1_000);
    let requotes = 0;
    const w = new HaltEndWatch(clock, haltUntil(61_000), () => requotes++);
    w.arm();
    w.stop();
    w.arm(); // a cancel failing during the shutdown trips the halt again
    expect(clock.pending).toBe(0);
    clock.advanceTo(200_000);
    expect(requotes).toBe(0);
  });
});
