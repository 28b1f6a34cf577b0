import { describe, expect, it } from "vitest";
import { TokenBucket } from "../../../src/execution/token-bucket.js";

/*
 * TokenBucket.observe charges as foreign use what the server counted beyond our own sends. It took
 * "our own" to be every send within a hold (window + margin) before the answered request: for a 60 s
 * window that includes sends of the server's previous window, which the server's count does not
 * hold. The charge came out short by them, and as they left our log (a hold after they were sent),
 * their tokens came back while the server had none left: the next sends drew 429s. Found by the
 * portfolio-reads test (reconcile-portfolio-reads.test.ts): the start's reads, one window before.
 */

/** The wallet's portfolio reads at rateLimitPerMin 60: 180 per 60 s, a burst of 30. */
const bucket = () => new TokenBucket({ limit: 180, windowMs: 60_000, marginMs: 50, burst: 30 });

describe("TokenBucket.observe: our sends of the server's previous window", () => {
  it("are not counted as ours in the server's count of the current one", () => {
    const b = bucket();
    for (let i = 0; i < 3; i++) b.take(0); // the server's window [0, 60 000)
    b.take(60_000); // the next window: another process has spent 176 of it before
    const charged = b.observe(
      { limit: 180, remaining: 3, resetAt: 120_000, observedAt: 60_000 },
      60_000,
      60_000,
    );
    expect(charged).toBe(176);
    // The first three leave our log at 60 050; the server still has 3 left in its window, no more.
    expect(b.available(60_050)).toBe(3);
    expect(b.available(119_999)).toBe(3);
  });

  it("still counts, within the reset's one-second resolution, what may be in the current window", () => {
    const b = bucket();
    b.take(59_500); // maybe counted in [59 000 …) if the reset was rounded up
    b.take(60_000);
    const charged = b.observe(
      { limit: 180, remaining: 170, resetAt: 120_000, observedAt: 60_000 },
      60_000,
      60_000,
    );
    expect(charged).toBe(8);
  });

  it("leaves a one-second window's count as it was: every send of the last hold may be in it", () => {
    const b = new TokenBucket({ limit: 50, windowMs: 1_000, marginMs: 50 });
    b.take(100);
    b.take(900);
    // Reset rounded up to a whole second: the estimate says nothing a one-second window can use.
    const charged = b.observe({ limit: 50, remaining: 48, resetAt: 1_910, observedAt: 910 }, 900, 910);
    expect(charged).toBe(0);
  });
});
