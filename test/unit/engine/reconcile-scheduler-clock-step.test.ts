import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { ReconcileReason } from "../../../src/engine/engine-events.js";
import { ReconcileScheduler } from "../../../src/engine/engine-reconcile.js";
import { SteppedClock } from "../../support/stepped-clock.js";
import { settle } from "./support/harness.js";

/*
 * review19-r3a: ReconcileScheduler.#later keeps the earliest timer by comparing wall-clock instants
 * (clock.now() + delay) while the timers themselves run on elapsed time. Once the wall clock steps
 * forward (NTP, a VM resumed), a trigger's `at` lies after the armed follow-up's stale `at`, so the
 * trigger arms nothing and waits for the follow-up. With the backoff (3ac4286) that follow-up is up
 * to 16 s away at the defaults (2, 4, 8, 16 s), not 2 s: a reconnect (fills missed while the user
 * socket was down) or an ambiguous placement is held back up to 16 s, though the README says a
 * trigger "is never held back by the wait, it runs within its 250 ms debounce".
 */

describe("review r3a: a trigger during a backed-off failure streak, after a wall-clock step forward", () => {
  it("still runs within its debounce", async () => {
    const sim = new SimClock(0);
    const wall = new SteppedClock(sim);
    const runs: { reason: ReconcileReason; at: number }[] = [];
    let failing = true;
    const s = new ReconcileScheduler(
      wall,
      { intervalMs: 30_000, debounceMs: 250, retryMs: 2_000 },
      async (reason) => {
        runs.push({ reason, at: sim.now() });
        if (failing) throw new Error("exchange down");
        return { pending: 0 };
      },
      () => undefined,
    );
    const advance = async (to: number) => {
      for (;;) {
        await settle();
        const next = sim.nextDeadline();
        if (next === undefined || next > to) break;
        sim.advanceTo(next);
      }
      sim.advanceTo(to);
      await settle();
    };
    s.start();
    // Periodic at 30 s fails, then follow-ups 2, 4, 8 s: the 4th failure (at 44 s) arms one at +16 s.
    await advance(45_000);
    expect(runs.map((r) => r.at)).toEqual([30_000, 32_000, 36_000, 44_000]);
    failing = false;
    wall.stepMs = 60 * 60_000; // the wall clock steps 1 h forward
    s.soon("reconnect");
    await advance(46_000);
    // Was: no run until the follow-up at 60 s (the reconnect's own timer never armed).
    expect(runs.slice(4)).toEqual([{ reason: "reconnect", at: 45_250 }]);
    s.stop();
  });
});
