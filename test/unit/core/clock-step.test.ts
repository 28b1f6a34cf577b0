import { describe, expect, it } from "vitest";
import { CLOCK_STEP_BACK_MS, ClockStepWatch } from "../../../src/core/clock-step.js";

describe("ClockStepWatch", () => {
  it("reports a step back longer than CLOCK_STEP_BACK_MS, once, by its length", () => {
    const w = new ClockStepWatch();
    expect(w.follow(1_000_000)).toBe(0);
    expect(w.follow(1_000_500)).toBe(0);
    expect(w.follow(1_000_500 - 600_000)).toBe(600_000);
    expect(w.follow(1_000_500 - 600_000 + 10)).toBe(0); // on from the new time
  });

  it("ignores a step back of at most CLOCK_STEP_BACK_MS (a stale reading), and forward steps", () => {
    const w = new ClockStepWatch();
    w.follow(50_000);
    expect(w.follow(50_000 - CLOCK_STEP_BACK_MS)).toBe(0);
    expect(w.follow(50_000 + 3_600_000)).toBe(0);
    expect(w.follow(50_000 + 3_600_000 - CLOCK_STEP_BACK_MS - 1)).toBe(CLOCK_STEP_BACK_MS + 1);
  });
});
