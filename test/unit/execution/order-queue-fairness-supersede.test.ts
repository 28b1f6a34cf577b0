import { describe, expect, it } from "vitest";
import { place, rig, runUntil } from "./order-queue.helpers.js";

/**
 * Review 16 (queue): placements of equal urgency go oldest first, and "oldest" was the seq of the
 * newest intent for the quote key: a superseding placement started at the back. Under a saturated
 * place budget (here 100 tokens requoting once a second against the wallet's 50/s) the token whose
 * price moves most often — re-quoted every 20 ms, always the youngest item in the lane — is never
 * the oldest, so it never gets a quote out while the others keep coming, however long the wait.
 * Fix: keep the key's first enqueue time (seq) when a placement supersedes another for the same key.
 */
describe("queue: fairness across tokens under a saturated place budget", () => {
  it("a token re-quoted more often than the others still gets placements out", async () => {
    const r = rig({ queue: { calmUrgencyTicks: 0 } });
    let n = 0;
    // 3 s of traffic: 100 slow tokens re-quote every 1000 ms, one fast token every 20 ms, same urgency.
    for (let t = 0; t < 3_000; t += 20) {
      await runUntil(r.clock, t);
      const batch = [];
      if (t % 1_000 === 0)
        for (let k = 0; k < 100; k++)
          batch.push(place(`s${k}-${n++}`, { token: `slow${k}`, urgency: 5, price: 400_000 + t }));
      batch.push(place(`f-${n++}`, { token: "fast", urgency: 5, price: 400_000 + t }));
      r.queue.enqueueAll(batch);
    }
    await runUntil(r.clock, 3_000);
    const sentFast = r.port.of("place").filter((c) => c.clientOrderId?.startsWith("f-")).length;
    const sentSlow = r.port.of("place").length - sentFast;
    expect(sentSlow).toBeGreaterThan(100);
    expect(sentFast).toBeGreaterThan(0);
  });
});
