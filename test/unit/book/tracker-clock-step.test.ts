import { describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { SteppedClock } from "../../support/stepped-clock.js";
import { BASE_ASKS, BASE_BIDS, delta, snapshot, TOKEN } from "./helpers.js";

const STALL = {
  k: 20,
  floorMs: 60_000,
  alpha: 0.1,
  minSamples: 20,
  checkEveryMs: 1_000,
  livenessTimeoutMs: 30_000,
};
const MINUTE = 60_000;

/** The tracker on a wall clock over a SimClock: a busy book (30 deltas 1 s apart, pongs every 5 s). */
function busyBook() {
  const sim = new SimClock(100 * MINUTE);
  const wall = new SteppedClock(sim);
  const requests: number[] = [];
  const tracker = new BookTracker({
    clock: wall,
    port: { requestSnapshot: () => requests.push(sim.now()) > 0 },
    config: { stall: STALL },
  });
  tracker.onEvent(snapshot(1, BASE_BIDS, BASE_ASKS));
  let seq = 1;
  for (let i = 0; i < 30; i++) {
    sim.advanceBy(1_000);
    if (i % 5 === 0) tracker.onConnectionAlive();
    tracker.onEvent(delta(seq + 1, seq, [["buy", "0.4", String(1 + (i % 7))]]));
    seq++;
  }
  /** Advances `ms` of monotonic time with a pong every 5 s. */
  const alive = (ms: number) => {
    for (let t = 0; t < ms; t += 5_000) {
      sim.advanceBy(Math.min(5_000, ms - t));
      tracker.onConnectionAlive();
    }
  };
  return { sim, wall, tracker, requests, alive };
}

/** The tracker's clock is the wall clock in the daemon: NTP or a VM resume can step it back by minutes. */
describe("BookTracker stall detector: a clock that steps back", () => {
  it("a book that goes silent after a 10-min step back is judged stale after its limit, not 10 min later", () => {
    const { wall, tracker, requests, alive } = busyBook();
    expect(tracker.state(TOKEN)?.status).toBe("synced");
    wall.stepMs = -10 * MINUTE;
    alive(58_000);
    expect(tracker.state(TOKEN)?.status).toBe("synced");
    alive(5_000); // past the 60 s floor (+ the check's second)
    expect(tracker.state(TOKEN)).toMatchObject({ status: "stale", reason: "book_silent" });
    expect(requests).toHaveLength(1); // the probe
  });

  it("a delta after the step keeps the book synced (its time is on the new scale)", () => {
    const { sim, wall, tracker, alive } = busyBook();
    wall.stepMs = -10 * MINUTE;
    sim.advanceBy(500);
    tracker.onEvent(delta(32, 31, [["buy", "0.4", "3"]]));
    alive(50_000);
    expect(tracker.state(TOKEN)?.status).toBe("synced");
  });
});
