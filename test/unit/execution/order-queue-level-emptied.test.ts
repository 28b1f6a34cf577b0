import { describe, expect, it } from "vitest";
import type { CancelIntent } from "../../../src/execution/intents.js";
import { MISSING_LIVE_URGENCY } from "../../../src/execution/order-manager-diff.js";
import { cancel, place, rig, runUntil } from "./order-queue.helpers.js";

/** A quoting step's cancel of t1's bid at level 0 (the order manager names the level it empties). */
const oldBid: CancelIntent = { ...cancel("old", "o-old"), level: { side: "buy", level: 0 } };

/**
 * A cancel-replace queues the cancel and the replacement together; the replacement is ranked by how
 * far the old quote was off (urgencyTicks). The cancel goes first, and from its answer on the level
 * is empty: the replacement must then rank as a missing quote, or busy tokens' placements for their
 * emptied levels (missing quotes, the most urgent) keep coming ahead of it for as long as they come.
 */
describe("queue: a placement whose level's cancel is done ranks as a missing quote", () => {
  it("is not starved by newer placements for missing quotes under a saturated place budget", async () => {
    // rateLimitPerMin 60: the wallet's place bucket is 5/s.
    const r = rig({ budget: { rateLimitPerMin: 60 }, port: { rateLimitPerMin: 60 } });
    let n = 0;
    const busy = () => place(`b${n}`, { token: `busy${n++}`, urgency: MISSING_LIVE_URGENCY });
    r.queue.enqueueAll([...Array.from({ length: 10 }, busy), oldBid, place("q", { urgency: 3 })]);
    // Busy tokens keep 5 placements a second for emptied levels coming: the whole place budget.
    for (let t = 0; t < 20_000; t += 200) {
      await runUntil(r.clock, t);
      r.queue.enqueue(busy());
    }
    await runUntil(r.clock, 20_000);
    expect(r.port.of("cancel").map((c) => c.orderId)).toEqual(["o-old"]);
    const sent = r.port.of("place").map((c) => c.clientOrderId);
    // In line after the 10 placements queued before it: about 2 s at 5/s.
    expect(sent.indexOf("q")).toBeGreaterThanOrEqual(0);
    expect(sent.indexOf("q")).toBeLessThanOrEqual(15);
  });

  it("is not shed as a calm requote once its level is empty", async () => {
    const r = rig({ budget: { rateLimitPerMin: 60 }, port: { rateLimitPerMin: 60 } });
    const busy = (from: number, k: number) =>
      Array.from({ length: k }, (_, i) =>
        place(`b${from + i}`, { token: `busy${from + i}`, urgency: MISSING_LIVE_URGENCY }),
      );
    r.queue.enqueueAll(busy(0, 5)); // the wallet's 5 placements of this second
    await runUntil(r.clock, 100);
    // A one-tick requote: within what the budget sends in a second, so not shed as it arrives.
    r.queue.enqueueAll([oldBid, place("q", { urgency: 1 })]);
    await runUntil(r.clock, 110);
    expect(r.port.of("cancel").map((c) => c.orderId)).toEqual(["o-old"]);
    // Its old quote is gone; a burst of placements for missing quotes arrives.
    r.queue.enqueueAll(busy(5, 30));
    await runUntil(r.clock, 10_000);
    expect(r.of("place_dropped").map((d) => d.intent.clientOrderId)).toEqual([]);
    expect(r.port.of("place").map((c) => c.clientOrderId)[5]).toBe("q");
  });

  it("a calm requote whose old quote's cancel is not answered yet is still shed", async () => {
    const r = rig({ budget: { rateLimitPerMin: 60 }, port: { rateLimitPerMin: 60 } });
    const busy = Array.from({ length: 30 }, (_, i) =>
      place(`b${i}`, { token: `busy${i}`, urgency: MISSING_LIVE_URGENCY }),
    );
    // A cancel that names no level (an orphan's, say) says nothing of any queued placement.
    r.queue.enqueueAll([cancel("old", "o-old"), place("q", { urgency: 1 }), ...busy]);
    await runUntil(r.clock, 10_000);
    expect(r.of("place_dropped").map((d) => [d.intent.clientOrderId, d.reason])).toEqual([["q", "shed"]]);
  });
});
