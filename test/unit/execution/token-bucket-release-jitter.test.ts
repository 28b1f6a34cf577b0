import { describe, expect, it } from "vitest";
import { TokenBucket } from "../../../src/execution/token-bucket.js";

/*
 * A wall clock (Date.now) read a little behind the bucket's last reading — a step back shorter than
 * CLOCK_STEP_BACK_MS, jitter the bucket is meant to tolerate — changes nothing but that reading:
 * a reservation given back on it returns its token as usual, and the pacer's refill time never
 * moves back. b81d611 took `now < unitsAt` (unitsAt is also the last reserve's time) for "within a
 * hold" and rebuilt a never-held bucket from an empty hold record: the IP's placement bucket dropped
 * from 166 tokens to 1, and placements crawled at its 16.7/s for ten seconds.
 */

/** The IP's placement bucket at the baseline: 1000 per 60 s, 50 ms margin, ten seconds' burst. */
const ipBucket = () => new TokenBucket({ limit: 1_000, windowMs: 60_000, marginMs: 50, burst: 167 });

const T = 100_000;

describe("TokenBucket: readings a little behind the last one", () => {
  it("a release gives the token back instead of emptying the bucket", () => {
    const b = ipBucket();
    b.reserve(T); // a placement being signed
    expect(b.available(T)).toBe(166);
    b.release(T - 200); // withdrawn (or its signing failed); the wall clock stepped back 200 ms meanwhile
    expect(b.available(T)).toBe(167);
  });

  it("a reserve does not refill the span between the two readings twice", () => {
    const b = ipBucket();
    b.reserve(T);
    b.reserve(T - 200); // 200 ms is 3.3 tokens at 1000 per 60.05 s
    expect(b.available(T)).toBe(165);
  });

  it("a release within a hold still goes back to what the bucket restarts with", () => {
    const b = ipBucket();
    b.reserve(T);
    b.block(T + 1_000, T);
    b.release(T + 500);
    expect(b.available(T + 1_000)).toBe(150); // 167 less 1 s at 16.65/s
  });
});
