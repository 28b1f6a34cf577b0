import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { GateTicket } from "../../../src/exchange/caller.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { budgetGate } from "../../../src/execution/rate-budget-wait.js";
import { TokenBucket } from "../../../src/execution/token-bucket.js";
import { cancel, rig, runUntil } from "./order-queue.helpers.js";

/*
 * When a hold (a 429's Retry-After) ended, every request waiting at that moment went at once: the
 * buckets had refilled during the hold, so the queue's 20 cancels or the gate's 100 order reads left
 * in the same millisecond, into a server that had just said "too many". After a hold as long as the
 * bucket takes to refill, it now lets its waiters go one at a time, at its own rate (limit per
 * window + margin), until it is full. (A shorter hold costs what it lasted: token-bucket-short-hold.)
 */

describe("TokenBucket: the end of a hold", () => {
  it("after a long hold, grants one token at its end, then one per (window + margin) / limit", () => {
    const b = new TokenBucket({ limit: 20, windowMs: 1_000, marginMs: 0 });
    b.block(5_000, 0);
    expect(b.available(4_999)).toBe(0);
    expect(b.available(5_000)).toBe(1);
    b.take(5_000);
    expect(b.available(5_000)).toBe(0);
    expect(b.nextAvailableAt(5_000)).toBe(5_050);
    expect(b.available(5_050)).toBe(1);
    // Paced until it is whole again: then the one-second bucket bursts as before.
    expect(b.available(7_000)).toBe(20);
  });

  it("estimates the capacity of a horizon that starts inside the hold from the hold's end", () => {
    const b = new TokenBucket({ limit: 20, windowMs: 1_000, marginMs: 0 });
    b.block(1_000, 0);
    expect(b.capacityWithin(0, 500)).toBe(0);
    // From 1 000 to 1 500: one at the end of the hold, one per 50 ms after it.
    expect(b.capacityWithin(0, 1_500)).toBe(11);
  });
});

describe("RateBudget: waiters after a hold", () => {
  it("the order queue sends the cancels that waited out a 429 one by one at the cancel rate, not at once", async () => {
    const r = rig({ budget: { marginMs: 0 } });
    r.port.script("cancel", { kind: "limited", retryAfterMs: 2_000 });
    r.queue.enqueue(cancel("c0", "o-0"));
    await runUntil(r.clock, 10);
    for (let i = 1; i <= 10; i++) r.queue.enqueue(cancel(`c${i}`, `o-${i}`));
    await runUntil(r.clock, 5_000);
    // c0's retry and the ten that queued behind the hold.
    const after = r.port.of("cancel").filter((c) => c.sentAt > 10);
    expect(after).toHaveLength(11);
    expect(after.filter((c) => c.sentAt === 2_000)).toHaveLength(1);
    for (let i = 1; i < after.length; i++) {
      expect((after[i]?.sentAt ?? 0) - (after[i - 1]?.sentAt ?? 0)).toBeGreaterThanOrEqual(50);
    }
  });

  it("the order reads' gate lets the reads that waited out a 429 go at the order_reads rate (10/s)", async () => {
    const T = 1_750_000_000_000;
    const clock = new SimClock(T);
    const budget = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    const gate = budgetGate(budget, clock, "order_reads");
    const first = await gate("GET", "/api/orders/open");
    first?.({ status: 429, code: "rate_limited", rateLimit: undefined, retryAfterMs: 30_000 });
    const released: number[] = [];
    for (let i = 0; i < 5; i++) {
      void gate("GET", "/api/orders/{id}")?.then((_t: GateTicket | undefined) => {
        released.push(clock.now() - T);
      });
    }
    for (let i = 0; i < 50 && released.length < 5; i++) {
      await new Promise((res) => setTimeout(res, 0));
      const next = clock.nextDeadline();
      if (next !== undefined) clock.advanceTo(next);
    }
    expect(released).toEqual([30_000, 30_100, 30_200, 30_300, 30_400]);
  });
});
