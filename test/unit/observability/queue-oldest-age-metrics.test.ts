import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../../src/observability/metrics.js";
import { Harness } from "../engine/support/harness.js";
import { THREE_BANDS } from "../engine/support/stop-rig.js";
import { parseExposition } from "./exposition.js";

const AGE = "mm_queue_oldest_placement_age_seconds";

/**
 * mm_queue_wait_seconds sees a placement only once it is sent, so under a saturated place budget a
 * level that waited (a starved token's quote) showed nowhere while it waited. The gauge reads the
 * engine's queue at scrape time, on the engine's clock.
 */
describe(AGE, () => {
  it("reads 0 with no engine watched", async () => {
    const registry = new Registry();
    const m = createMetrics({ registry, defaultMetrics: false });
    const f = parseExposition(await registry.metrics()).get(AGE);
    expect(f?.samples.map((x) => x.value)).toEqual([0]);
    m.close();
  });

  it("grows with the engine's clock while placements wait for the budget, and is 0 once none waits", async () => {
    // 24 placements at 60 a minute (1 a second): most wait in the queue.
    const h = new Harness({ markets: 2, strategy: THREE_BANDS, options: { rateLimitPerMin: 60 } });
    for (let i = 1; i <= 2; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.40", "0.60");
    const registry = new Registry();
    const metrics = createMetrics({ registry, defaultMetrics: false, clock: h.clock });
    metrics.watchEngine(h.engine);
    const scrape = async () => {
      const samples = parseExposition(await registry.metrics()).get(AGE)?.samples ?? [];
      expect(samples).toHaveLength(1);
      return samples[0]?.value;
    };
    const enqueuedAt = h.clock.now();
    await h.engine.start();
    await h.run(50);
    expect(h.engine.status().queuedPlacements).toBeGreaterThan(2);
    expect(await scrape()).toBeCloseTo((h.clock.now() - enqueuedAt) / 1_000, 9);

    // Two more seconds: two more placements went, the rest of the first wave still waits since then.
    await h.run(2_000);
    expect(h.engine.status().queuedPlacements).toBeGreaterThan(0);
    expect(await scrape()).toBeCloseTo((h.clock.now() - enqueuedAt) / 1_000, 9);

    const stopping = h.engine.stop("SIGINT", 3_000);
    await h.run(3_000);
    await stopping;
    expect(h.engine.status().queuedPlacements).toBe(0);
    expect(await scrape()).toBe(0);
    metrics.close();
  });
});
