import { describe, expect, it } from "vitest";
import { place, rig, runUntil } from "./order-queue.helpers.js";

/**
 * mm_queue_wait_seconds is observed only when a placement is sent, so a level starved under a
 * saturated place budget showed nowhere while it starved (only the place lane's depth hinted at it).
 * The queue now answers, at scrape time, how long its longest-waiting placement has waited.
 */
describe("queue: age of the oldest queued placement", () => {
  // rateLimitPerMin 12 scales the wallet's place bucket (50/s at 600) to 1 a second: one placement
  // leaves at once, the next ones wait their turn.
  const slowRig = () => rig({ budget: { rateLimitPerMin: 12 } });
  const sentCoids = (r: ReturnType<typeof rig>) => r.port.of("place").map((c) => c.clientOrderId);

  it("reads 0 with nothing queued, follows the next placement once the oldest is sent, and 0 again when the lane empties", async () => {
    const r = slowRig();
    expect(r.queue.oldestPlacementAgeMs()).toBe(0);
    r.queue.enqueue(place("filler", { token: "f" }));
    await runUntil(r.clock, 100);
    expect(sentCoids(r)).toEqual(["filler"]);
    expect(r.queue.oldestPlacementAgeMs()).toBe(0);

    r.queue.enqueue(place("older", { token: "a" }));
    await runUntil(r.clock, 400);
    r.queue.enqueue(place("newer", { token: "b" }));
    await runUntil(r.clock, 500);
    expect(sentCoids(r)).toEqual(["filler"]);
    expect(r.queue.oldestPlacementAgeMs()).toBe(400); // 500 − 100

    // The next token goes to the older one (same urgency: oldest first); the age is the newer one's.
    await runUntil(r.clock, 1_600);
    expect(sentCoids(r)).toEqual(["filler", "older"]);
    expect(r.queue.oldestPlacementAgeMs()).toBe(1_200); // 1600 − 400

    await runUntil(r.clock, 2_600);
    expect(sentCoids(r)).toEqual(["filler", "older", "newer"]);
    expect(r.queue.oldestPlacementAgeMs()).toBe(0);
  });

  it("a placement superseding a queued one keeps its age: how long the level has waited", async () => {
    const r = slowRig();
    r.queue.enqueue(place("filler", { token: "f" }));
    await runUntil(r.clock, 100);
    r.queue.enqueue(place("first", { token: "a", price: 400_000 }));
    await runUntil(r.clock, 700);
    r.queue.enqueue(place("second", { token: "a", price: 410_000 }));
    await runUntil(r.clock, 800);
    expect(r.queue.stats.superseded).toBe(1);
    expect(sentCoids(r)).toEqual(["filler"]);
    expect(r.queue.oldestPlacementAgeMs()).toBe(700); // 800 − 100, not 800 − 700
  });
});
