import { describe, expect, it } from "vitest";
import { RateBudget } from "../../../src/execution/rate-budget.js";

/**
 * Review 16 (queue): RateBudget.observe sends X-RateLimit-* to the bucket of the op whose limit is
 * nearest by ratio to X-RateLimit-Limit, and a lower limit lowers that bucket's capacity for good.
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
});
