import { describe, expect, it } from "vitest";
import { TokenBucket } from "../../../src/execution/token-bucket.js";

const T0 = 1_750_000_000_000;
const STEP = 10 * 60_000;

describe("TokenBucket: a wall clock that steps back", () => {
  it("paces on from the new time instead of refilling nothing for the length of the step", () => {
    // order_reads at 600/min: a 10 s burst (100), then one token per 100 ms.
    const b = new TokenBucket({ limit: 600, windowMs: 60_000, burst: 100 });
    for (let i = 0; i < 100; i++) b.take(T0);
    expect(b.available(T0)).toBe(0);
    const back = T0 - STEP; // NTP corrects a clock that ran 10 minutes ahead
    expect(b.available(back)).toBe(0);
    // The same elapsed time as without the step brings the next token.
    expect(b.nextAvailableAt(back)).toBe(back + 100);
    expect(b.available(back + 100)).toBe(1);
  });

  it("brings the window's sends back after the same elapsed time", () => {
    const b = new TokenBucket({ limit: 3, windowMs: 1000, marginMs: 50 });
    b.take(T0);
    b.take(T0 + 10);
    b.take(T0 + 20);
    const back = T0 + 20 - STEP;
    expect(b.available(back)).toBe(0);
    expect(b.nextAvailableAt(back)).toBe(back + 1030);
    expect(b.available(back + 1050)).toBe(3);
  });

  it("keeps a Retry-After block for its remaining time", () => {
    const b = new TokenBucket({ limit: 3, windowMs: 1000 });
    b.block(T0 + 5_000, T0); // a 429's Retry-After of 5 s, answered at T0
    expect(b.available(T0)).toBe(0);
    const back = T0 - STEP;
    expect(b.available(back)).toBe(0);
    expect(b.available(back + 4_999)).toBe(0);
    expect(b.available(back + 5_000)).toBe(1); // then paced back to its burst (see block)
    expect(b.available(back + 6_000)).toBe(3);
  });

  it("ignores a step back of a second or less (a stale reading, an NTP nudge): no send moves earlier", () => {
    const b = new TokenBucket({ limit: 3, windowMs: 1000 });
    b.take(T0);
    b.take(T0);
    b.take(T0);
    expect(b.available(T0 + 500)).toBe(0);
    expect(b.available(T0 - 500)).toBe(0);
    expect(b.nextAvailableAt(T0 - 500)).toBe(T0 + 1000);
  });
});
