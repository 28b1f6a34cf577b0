import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { ServerClock } from "../../../src/exchange/server-clock.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { SteppedClock } from "../../support/stepped-clock.js";
import { parseExposition } from "./exposition.js";

const OFFSET = "mm_exchange_clock_offset_seconds";
const T0 = 1_700_000_000_000;

async function samples(registry: Registry): Promise<number[]> {
  return (parseExposition(await registry.metrics()).get(OFFSET)?.samples ?? []).map((s) => s.value);
}

/**
 * The exchange's clock minus ours, from the HTTP client's X-Server-Time estimate. A gauge without
 * labels reads 0 until set: before the first answer that 0 would claim a clock in perfect sync,
 * so the family has no sample until there is an estimate.
 */
describe(OFFSET, () => {
  it("has no sample before any estimate: no server clock watched, then one without an answer yet", async () => {
    const registry = new Registry();
    const metrics = createMetrics({ registry, defaultMetrics: false });
    expect(await samples(registry)).toEqual([]);
    metrics.watchServerClock(new ServerClock(new SimClock(T0)));
    expect(await samples(registry)).toEqual([]);
    metrics.close();
  });

  it("shows the estimate in seconds, and our wall clock's step at once (the estimate is monotonic)", async () => {
    const sim = new SimClock(T0);
    const wall = new SteppedClock(sim);
    const serverClock = new ServerClock(wall);
    const registry = new Registry();
    const metrics = createMetrics({ registry, defaultMetrics: false, clock: wall });
    metrics.watchServerClock(serverClock);
    // The exchange runs 4 s ahead of us: a 20 ms round trip stamped at its midpoint.
    const sent = wall.monotonic();
    sim.advanceBy(10);
    const stamp = sim.now() + 4_000;
    sim.advanceBy(10);
    serverClock.observe(sent, wall.monotonic(), stamp);
    expect(await samples(registry)).toEqual([4]);
    // NTP steps our clock 4 s forward: now in step with the exchange, before any new answer.
    wall.stepMs = 4_000;
    expect(await samples(registry)).toEqual([0]);
    // Stepped 1.5 s too far: we run ahead, the offset is negative.
    wall.stepMs = 5_500;
    expect(await samples(registry)).toEqual([-1.5]);
    metrics.close();
  });
});
