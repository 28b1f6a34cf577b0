import { describe, expect, it } from "vitest";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { TokenBucket } from "../../../src/execution/token-bucket.js";
import { place, rig, runUntil } from "./order-queue.helpers.js";

/*
 * A hold (a 429's Retry-After) costs a bucket at most what it lasted: at its end the bucket restarts
 * with the tokens it had when the hold began, no more than its burst less what its rate refills over
 * the hold, and at least one. Restarting every bucket of the op from one token (5ad535e) made a 1 s
 * 429 from the wallet's 50/s bucket also empty the IP's placement bucket (1000 per 60 s, burst 167),
 * whose rate is 16.7/s: placements crawled at that rate for ten seconds, a 100-quote requote taking
 * ~6 s instead of ~2 s, in the volatile moments that draw 429s. A hold as long as the bucket takes to
 * refill still restarts it from one token, so its waiters never leave in one instant.
 */

/** The IP's placement bucket at the baseline: 1000 per 60 s, 50 ms margin, ten seconds' burst. */
const ipBucket = () => new TokenBucket({ limit: 1_000, windowMs: 60_000, marginMs: 50, burst: 167 });

describe("TokenBucket: a short hold", () => {
  it("costs a full bucket what its rate refills in the hold, not its whole burst", () => {
    const b = ipBucket();
    b.block(1_000, 0);
    expect(b.available(999)).toBe(0);
    // 167 less 1 s at 1000 per 60.05 s (16.65 tokens)
    expect(b.available(1_000)).toBe(150);
  });

  it("restarts a partly spent bucket with what it had when the hold began: nothing refills meanwhile", () => {
    const b = ipBucket();
    for (let i = 0; i < 100; i++) b.take(0);
    b.block(1_000, 0);
    expect(b.available(1_000)).toBe(67);
    // Then it refills at its rate from the hold's end: one more 60.05 ms later.
    expect(b.nextAvailableAt(1_000)).toBe(1_000);
    for (let i = 0; i < 67; i++) b.take(1_000);
    expect(b.nextAvailableAt(1_000)).toBe(1_061);
  });

  it("a hold extended while it runs costs its whole length, from its start", () => {
    const b = ipBucket();
    b.block(1_000, 0);
    b.block(3_000, 500); // a second 429 during the first hold
    expect(b.available(2_999)).toBe(0);
    expect(b.available(3_000)).toBe(117); // 167 less 3 s at 16.65/s
  });

  it("a hold as long as the burst takes to refill restarts from one token, then the bucket's rate", () => {
    const b = ipBucket();
    b.block(10_030, 0); // 167 tokens at 1000 per 60.05 s
    expect(b.available(10_030)).toBe(1);
    b.take(10_030);
    expect(b.nextAvailableAt(10_030)).toBe(10_091);
  });

  it("a reservation given back during the hold returns to what the bucket restarts with", () => {
    const b = ipBucket();
    b.reserve(0); // a placement being signed when the 429 arrives
    b.block(1_000, 0);
    b.release(500);
    expect(b.available(1_000)).toBe(150);
  });
});

describe("RateBudget: placements after a one-second 429", () => {
  it("a 100-quote requote goes at the wallet's 50/s, not at the IP bucket's 16.7/s", async () => {
    const budget = new RateBudget({ rateLimitPerMin: 600 });
    const shapes = budget.buckets("place").map((b) => [b.limit, b.burst]);
    expect(shapes.sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0))).toEqual([
      [50, 50],
      [1_000, 167],
    ]);
    const r = rig({ queue: { stillDesired: () => true } });
    r.port.script("place", { kind: "limited", retryAfterMs: 1_000 });
    r.queue.enqueue(place("p", { token: "p" }));
    await runUntil(r.clock, 10);
    r.queue.enqueueAll(Array.from({ length: 100 }, (_, i) => place(`q${i}`, { token: `q${i}` })));
    await runUntil(r.clock, 5_000);
    const sent = r.port.of("place").filter((c) => c.clientOrderId !== "p");
    expect(sent).toHaveLength(100);
    const last = Math.max(...sent.map((c) => c.sentAt));
    // Held until 1 000, then the wallet's bucket from one token at 50 per 1.05 s: about 2.1 s.
    expect(last).toBeGreaterThan(2_000);
    expect(last).toBeLessThan(3_200);
  });
});
