import { describe, expect, it } from "vitest";
import { RateBudget } from "../../../src/execution/rate-budget.js";

/**
 * Review 16 (queue): RateBudget.observe sent X-RateLimit-* to the bucket of the op whose limit is
 * nearest by ratio to X-RateLimit-Limit, and a lower limit lowered that bucket's capacity for good.
 * With a market-maker lift configured through queue.rateLimitPerMin (spec: 10 to 50 times on place),
 * the wallet's place bucket (50 × k per 1 s) is as near to, or farther from, a header of 50 than the
 * IP's (1000 per 60 s): the wallet's own header (a lift not, or no longer, granted: the very case the
 * lowering is for) lowers the IP bucket to 50 per 60 s — placements at 0.83/s until restart — while
 * the wallet bucket keeps its lifted 1000 or 2500 per second. The header's reset (≤ 1 s) says it is
 * the 1 s bucket.
 */
describe("queue: a wallet rate-limit header under a lifted rateLimitPerMin", () => {
  for (const rateLimitPerMin of [12_000, 30_000]) {
    it(`rateLimitPerMin ${rateLimitPerMin}: X-RateLimit-Limit 50 with a 1 s reset corrects the wallet bucket, not the IP's`, () => {
      const budget = new RateBudget({ rateLimitPerMin });
      const now = 10_000;
      budget.observe(
        "place",
        { limit: 50, remaining: 49, resetAt: now + 1_000, observedAt: now },
        now - 5,
        now,
      );
      const [ip, wallet] = budget.buckets("place").map((b) => ({ window: b.windowMs, capacity: b.capacity }));
      const byWindow = new Map([ip, wallet].map((b) => [b?.window, b?.capacity]));
      // The IP bucket (1000 per 60 s) is untouched; the wallet bucket takes the server's 50.
      expect(byWindow.get(60_000)).toBe(1_000);
      expect(byWindow.get(1_000)).toBe(50);
    });
  }

  it("a reset longer than the 1 s window rules the wallet bucket out, whatever the limit's ratio says", () => {
    // Wallet place 2500/s; a 2000 is nearer 2500 than 1000 by ratio, but a 40 s reset is no 1 s window.
    const budget = new RateBudget({ rateLimitPerMin: 30_000 });
    const now = 10_000;
    budget.observe(
      "place",
      { limit: 2_000, remaining: 1_990, resetAt: now + 40_000, observedAt: now },
      now - 5,
      now,
    );
    const byWindow = new Map(budget.buckets("place").map((b) => [b.windowMs, b.capacity]));
    expect(byWindow.get(1_000)).toBe(2_500);
    expect(byWindow.get(60_000)).toBe(1_000);
  });

  it("at the baseline the IP's header (long reset) still goes to the IP bucket, the wallet's to the wallet's", () => {
    const budget = new RateBudget({ rateLimitPerMin: 600 });
    const now = 10_000;
    budget.observe(
      "place",
      { limit: 900, remaining: 899, resetAt: now + 30_000, observedAt: now },
      now - 5,
      now,
    );
    budget.observe(
      "place",
      { limit: 40, remaining: 39, resetAt: now + 1_000, observedAt: now },
      now - 5,
      now,
    );
    const byWindow = new Map(budget.buckets("place").map((b) => [b.windowMs, b.capacity]));
    expect(byWindow.get(60_000)).toBe(900);
    expect(byWindow.get(1_000)).toBe(40);
  });
});

describe("queue: the IP's place header in its window's last second (session 25)", () => {
  it("a 1 s reset with the IP's limit charges the IP bucket, not the wallet's 50 per s", () => {
    const budget = new RateBudget({ rateLimitPerMin: 600 });
    const now = 100_000;
    // Our own 984 placements over the last minute, then the IP's header: 16 left, reset 1 s.
    for (let i = 0; i < 984; i++)
      budget.take("place", budget.nextAvailableAt("place", now - 60_000 + i * 60));
    const [ip, wallet] = budget.buckets("place");
    const t = Math.max(now, budget.nextAvailableAt("place", now));
    budget.observe("place", { limit: 1_000, remaining: 16, resetAt: t + 1_000, observedAt: t }, t - 5, t);
    expect(wallet?.windowMs).toBe(1_000);
    expect(ip?.windowMs).toBe(60_000);
    // Nothing charged as foreign: the IP bucket's own log explains the 984.
    expect(wallet?.available(t)).toBeGreaterThan(0);
    expect(budget.available("place", t)).toBeGreaterThan(0);
  });
});
