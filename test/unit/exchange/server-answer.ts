import type { SimClock } from "../../../src/core/sim-clock.js";
import type { ServerClock } from "../../../src/exchange/server-clock.js";
import type { SteppedClock } from "../../support/stepped-clock.js";

/**
 * One exchange answer seen by `server`: a 10 ms round trip stamped midway on the exchange's clock
 * (the SimClock's time; ours is `wall`, the SimClock possibly stepped), then a second's pause.
 * @example for (let i = 0; i < 20; i++) serverAnswer(sim, wall, server);
 */
export function serverAnswer(sim: SimClock, wall: SteppedClock, server: ServerClock): void {
  const sent = wall.monotonic();
  sim.advanceBy(5);
  const stamp = sim.now();
  sim.advanceBy(5);
  server.observe(sent, wall.monotonic(), stamp);
  sim.advanceBy(1_000);
}
