import { describe, expect, it } from "vitest";
import { monotonicNow, monotonicSource } from "../../../src/core/clock.js";
import { LiveClock } from "../../../src/core/live-clock.js";
import { SimClock } from "../../../src/core/sim-clock.js";

describe("the Clock port's monotonic reading", () => {
  it("a SimClock (which never steps) has none: its time serves, and no source is offered", () => {
    const sim = new SimClock(1_000);
    sim.advanceBy(250);
    expect(monotonicNow(sim)).toBe(1_250);
    expect(monotonicSource(sim)).toBeUndefined();
  });

  it("LiveClock reads performance.now(), not the wall clock", () => {
    const live = new LiveClock();
    const a = monotonicNow(live);
    const b = monotonicSource(live)?.() as number;
    expect(b).toBeGreaterThanOrEqual(a);
    // Milliseconds since the process started, far below an epoch instant (Date.now()).
    expect(Math.abs(live.now() - a)).toBeGreaterThan(1_000_000_000_000);
  });
});
