import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { PLATFORM_POLL_MS, PlatformWatch } from "../../../src/engine/platform-watch.js";
import { SteppedClock } from "../../support/stepped-clock.js";

const T0 = 1_750_000_000_000;
const MINUTE = 60_000;

/** The watch on a wall clock over a SimClock; reads answered by hand. */
function world() {
  const sim = new SimClock(T0);
  const wall = new SteppedClock(sim);
  const pending: ((v: boolean | undefined) => void)[] = [];
  const w = { sim, wall, pending, reads: 0, frozen: false };
  const watch = new PlatformWatch({
    clock: wall,
    log: pino({ level: "silent" }),
    read: () => {
      w.reads++;
      return new Promise((resolve) => pending.push(resolve));
    },
    frozen: () => w.frozen,
    apply: (frozen) => {
      w.frozen = frozen;
    },
    count: () => {},
  });
  const answer = async (v: boolean | undefined) => {
    pending.shift()?.(v);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { w, watch, answer };
}

/** The engine's clock is the wall clock: NTP or a VM resume can step it back by minutes. */
/**
 * The time between the clock's last reading before the step and the step is unseen (only the wall
 * clock is read), so the first poll after a step may come up to one more interval late: within
 * 2 × PLATFORM_POLL_MS, not after the step's length.
 */
describe("PlatformWatch: a clock that steps back while the platform is frozen", () => {
  it("the poll goes on within two intervals of elapsed time, not after the step's length", async () => {
    const { w, watch, answer } = world();
    watch.pushed(true);
    w.sim.advanceBy(PLATFORM_POLL_MS);
    expect(w.reads).toBe(1);
    await answer(true);
    w.wall.stepMs = -10 * MINUTE;
    w.sim.advanceBy(2 * PLATFORM_POLL_MS);
    expect(w.reads).toBe(2);
    await answer(false); // the thaw whose push was lost
    expect(w.frozen).toBe(false);
  });

  it("a push before the step does not hold the first poll after it for the step's length", () => {
    const { w, watch } = world();
    watch.pushed(true);
    w.wall.stepMs = -10 * MINUTE;
    w.sim.advanceBy(2 * PLATFORM_POLL_MS);
    expect(w.reads).toBe(1);
  });
});
