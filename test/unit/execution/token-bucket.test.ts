import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BucketEmptyError, TokenBucket } from "../../../src/execution/token-bucket.js";

/** Most sends in any half-open interval [a, a + len) (two pointers over sorted times). */
function maxInAnyInterval(times: number[], len: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while ((t[hi] as number) - (t[lo] as number) >= len) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/** Most sends in one fixed window [k·len − phase, (k+1)·len − phase). */
function maxInFixedWindows(times: number[], len: number, phase: number): number {
  const counts = new Map<number, number>();
  for (const t of times) {
    const k = Math.floor((t + phase) / len);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

describe("TokenBucket", () => {
  it("grants `limit` at once and returns each token window + margin after its send", () => {
    const b = new TokenBucket({ limit: 3, windowMs: 1000, marginMs: 50 });
    b.take(0);
    b.take(10);
    b.take(20);
    expect(b.available(20)).toBe(0);
    expect(b.nextAvailableAt(20)).toBe(1050);
    expect(b.available(1049)).toBe(0);
    expect(b.available(1050)).toBe(1);
    expect(b.available(1070)).toBe(3);
  });

  it("refuses to take from an empty bucket (a bug, never a silent overrun)", () => {
    const b = new TokenBucket({ limit: 1, windowMs: 1000 });
    b.take(0);
    expect(() => b.take(500)).toThrow(BucketEmptyError);
  });

  it("keeps a reserved token out until commit, and counts the window from the actual send", () => {
    const b = new TokenBucket({ limit: 1, windowMs: 1000 });
    b.reserve(0);
    expect(b.available(5000)).toBe(0);
    expect(b.nextAvailableAt(5000)).toBe(Number.POSITIVE_INFINITY);
    b.commit(5000);
    expect(b.nextAvailableAt(5000)).toBe(6000);
  });

  it("gives a released reservation back at once", () => {
    const b = new TokenBucket({ limit: 1, windowMs: 1000 });
    b.reserve(0);
    b.release(1);
    expect(b.available(1)).toBe(1);
  });

  it("honours a block (Retry-After) and never shortens it", () => {
    const b = new TokenBucket({ limit: 10, windowMs: 1000 });
    b.block(2000, 0);
    b.block(1500, 0);
    expect(b.nextAvailableAt(0)).toBe(2000);
    expect(b.available(1999)).toBe(0);
    // One at its end, then one per (window + margin) / limit until the bucket is whole again.
    expect(b.available(2000)).toBe(1);
    expect(b.available(2250)).toBe(3);
    expect(b.available(3000)).toBe(10);
  });

  it("paces a long window: burst first, then limit per window + margin", () => {
    const b = new TokenBucket({ limit: 600, windowMs: 60_000, burst: 10 });
    for (let i = 0; i < 10; i++) b.take(0);
    expect(b.available(0)).toBe(0);
    expect(b.nextAvailableAt(0)).toBe(100); // 600 per 60 s → one per 100 ms
    expect(b.available(250)).toBe(2);
  });

  it("charges what the server counted beyond our sends until its reset, and lowers a smaller limit", () => {
    const b = new TokenBucket({ limit: 50, windowMs: 1000, marginMs: 50 });
    b.take(100);
    // The server saw 31 requests in this window: ours plus 30 from elsewhere.
    const charged = b.observe({ limit: 50, remaining: 19, resetAt: 1100, observedAt: 110 }, 100, 110);
    expect(charged).toBe(30);
    expect(b.available(110)).toBe(19);
    expect(b.available(1100)).toBe(49);
    // A header that says more is left never raises the estimate.
    b.observe({ limit: 50, remaining: 49, resetAt: 1100, observedAt: 120 }, 100, 120);
    expect(b.available(120)).toBe(19);
    b.observe({ limit: 40, remaining: 39, resetAt: 2100, observedAt: 1200 }, 1150, 1200);
    expect(b.capacity).toBe(40);
  });

  it("does not charge foreign use when the server only counted our own sends", () => {
    const b = new TokenBucket({ limit: 50, windowMs: 1000, marginMs: 50 });
    for (let t = 0; t < 40; t++) b.take(t * 10);
    expect(b.observe({ limit: 50, remaining: 10, resetAt: 1000, observedAt: 400 }, 390, 400)).toBe(0);
  });

  it("property: sends never exceed the limit in any interval of window + margin, so in no fixed window", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("take" as const), dt: fc.integer({ min: 0, max: 400 }) }),
      // Greedy: send at the first instant the bucket allows (probes the boundaries exactly).
      fc.record({ kind: fc.constant("next" as const), dt: fc.constant(0) }),
      fc.record({ kind: fc.constant("next" as const), dt: fc.constant(0) }),
      fc.record({
        kind: fc.constant("reserve" as const),
        dt: fc.integer({ min: 0, max: 400 }),
        delay: fc.integer({ min: 0, max: 80 }),
        keep: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant("observe" as const),
        dt: fc.integer({ min: 0, max: 400 }),
        remaining: fc.integer({ min: 0, max: 60 }),
      }),
      fc.record({
        kind: fc.constant("block" as const),
        dt: fc.integer({ min: 0, max: 50 }),
        ms: fc.integer({ min: 0, max: 3000 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(1000, 5000, 60_000),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 59_999 }),
        fc.array(op, { maxLength: 300 }),
        (limit, windowMs, marginMs, burst, phase, ops) => {
          const b = new TokenBucket({ limit, windowMs, marginMs, burst });
          const sends: number[] = [];
          const pending: { at: number; keep: boolean }[] = [];
          let now = 0;
          const flush = (upTo: number) => {
            pending.sort((x, y) => x.at - y.at);
            while (pending.length > 0 && (pending[0] as { at: number }).at <= upTo) {
              const p = pending.shift() as { at: number; keep: boolean };
              if (p.keep) {
                b.commit(p.at);
                sends.push(p.at);
              } else b.release(p.at);
            }
          };
          for (const o of ops) {
            now += o.dt;
            flush(now);
            if (o.kind === "next") {
              const at = b.nextAvailableAt(now);
              if (!Number.isFinite(at)) continue;
              now = at;
              flush(now);
              if (b.available(now) < 1) continue; // a commit just before `at` took the token
              b.take(now);
              sends.push(now);
            } else if (o.kind === "block") b.block(now + o.ms, now);
            else if (o.kind === "observe")
              b.observe({ limit, remaining: o.remaining, resetAt: now + 700, observedAt: now }, now, now);
            else if (b.available(now) >= 1) {
              if (o.kind === "take") {
                b.take(now);
                sends.push(now);
              } else {
                b.reserve(now);
                pending.push({ at: now + o.delay, keep: o.keep });
              }
            } else expect(b.nextAvailableAt(now)).toBeGreaterThan(now);
          }
          flush(Number.POSITIVE_INFINITY);
          expect(maxInAnyInterval(sends, windowMs + marginMs)).toBeLessThanOrEqual(limit);
          expect(maxInFixedWindows(sends, windowMs, phase % windowMs)).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: a send is possible exactly from nextAvailableAt on", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 200 }), (gaps) => {
        const b = new TokenBucket({ limit: 7, windowMs: 1000, marginMs: 30, burst: 4 });
        let now = 0;
        for (const g of gaps) {
          now += g;
          const at = b.nextAvailableAt(now);
          if (at > now) expect(b.available(at - 1)).toBe(0);
          expect(b.available(at)).toBeGreaterThanOrEqual(1);
          now = at;
          b.take(now);
        }
      }),
      { numRuns: 200 },
    );
  });
});
