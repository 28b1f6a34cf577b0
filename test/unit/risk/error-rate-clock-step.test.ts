import { describe, expect, it } from "vitest";
import { ErrorRateHalt } from "../../../src/risk/error-rate.js";

const MINUTE = 60_000;
const settings = { maxErrors: 2, windowMs: 10_000, coolDownMs: 5_000, ignoreCodes: [] };

/** The engine's clock is the wall clock: NTP or a VM resume can step it back by minutes. */
describe("error-rate halt: a clock that steps back", () => {
  it("a running halt ends after its cool-down in elapsed time, not 10 min later", () => {
    const h = new ErrorRateHalt(settings);
    const t = 20 * MINUTE;
    h.record("e", t);
    h.record("e", t + 1);
    expect(h.record("e", t + 2)).toBe(true);
    // The clock reads 10 min earlier. The halt runs on from the last reading before the step (the
    // time between that reading and the step is unseen), so it ends 5 s after the trip's reading.
    const back = t + 2 - 10 * MINUTE;
    expect(h.halted(back)).toBe(true);
    expect(h.halted(back + 4_999)).toBe(true);
    expect(h.halted(back + 5_000)).toBe(false);
  });

  it("errors counted before the step leave the window after windowMs of elapsed time", () => {
    const h = new ErrorRateHalt(settings);
    const t = 20 * MINUTE;
    h.record("e", t);
    h.record("e", t + 1);
    const back = t + 1 - 10 * MINUTE;
    expect(h.count(back)).toBe(2);
    expect(h.count(back + 9_999)).toBe(1);
    expect(h.count(back + 10_000)).toBe(0);
    expect(h.record("e", back + 10_000)).toBe(false);
  });

  it("a step back under a second changes nothing (reading jitter)", () => {
    const h = new ErrorRateHalt(settings);
    h.record("e", 1_000);
    h.record("e", 1_001);
    expect(h.record("e", 1_002)).toBe(true);
    expect(h.halted(500)).toBe(true);
    expect(h.halted(6_001)).toBe(true);
    expect(h.halted(6_002)).toBe(false);
  });
});
