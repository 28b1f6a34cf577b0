import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Intent } from "../../../src/execution/intents.js";
import type { FakeCall, FakeOp } from "./order-queue.fake-port.js";
import { cancel, cancelAll, place, rig, runUntil } from "./order-queue.helpers.js";

/** Most calls in any half-open interval of `len` ms. */
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

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const event = fc.record({
  dt: fc.integer({ min: 0, max: 20 }),
  kind: fc.oneof(
    { arbitrary: fc.constant("place" as const), weight: 12 },
    { arbitrary: fc.constant("cancel" as const), weight: 6 },
    { arbitrary: fc.constant("cancel_all" as const), weight: 1 },
    { arbitrary: fc.constant("kill" as const), weight: 1 },
  ),
  token: fc.integer({ min: 0, max: 29 }),
  level: fc.integer({ min: 0, max: 1 }),
  sell: fc.boolean(),
  urgency: fc.integer({ min: 0, max: 10 }),
});

describe("OrderQueue never exceeds a bucket (property)", () => {
  it("random intent streams, window phases and latencies: zero 429s, no window over its limit, one report per intent", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 59_999 }),
        fc.constantFrom(60, 600, 1200),
        fc.constantFrom(0.1, 1),
        fc.integer({ min: 1, max: 49 }),
        fc.integer(),
        fc.array(event, { minLength: 200, maxLength: 800, size: "max" }),
        async (phaseMs, rateLimitPerMin, ipLimitFactor, jitter, seed, events) => {
          const u = lcg(seed);
          // Arrival delays spread over less than the 50 ms margin; answers take up to 30 ms more.
          const latency = () => ({ inMs: 2 + Math.floor(u() * jitter), outMs: Math.floor(u() * 30) });
          const r = rig({
            port: { phaseMs, rateLimitPerMin, ipLimitFactor, latency },
            budget: { rateLimitPerMin, ipLimitFactor, marginMs: 50 },
            queue: { restingOrders: () => [], stillDesired: () => true },
          });
          const intents: Intent[] = [];
          let t = 0;
          let n = 0;
          for (const e of events) {
            t += e.dt;
            const k = n++;
            const market = `m${e.token % 5}`;
            const intent: Intent =
              e.kind === "place"
                ? place(`p${k}`, {
                    token: `t${e.token}`,
                    market,
                    level: e.level,
                    side: e.sell ? "sell" : "buy",
                    urgency: e.urgency,
                  })
                : e.kind === "cancel"
                  ? cancel(`p${Math.floor(u() * k)}`, u() < 0.8 ? `o-x${k}` : undefined, market)
                  : cancelAll(e.kind === "kill" ? undefined : market);
            intents.push(intent);
            r.clock.setTimer(t, () => r.queue.enqueue(intent));
          }
          await runUntil(r.clock, t + 3_000);
          const closed = r.queue.close();
          await runUntil(r.clock, t + 20_000);
          await closed;

          expect(r.port.calls.filter((c) => c.limited)).toEqual([]);
          for (const op of ["place", "cancel", "cancel_all"] as FakeOp[]) {
            const calls = r.port.of(op);
            for (const rule of r.port.rules[op]) {
              expect(
                maxInAnyInterval(
                  calls.map((c: FakeCall) => c.sentAt),
                  rule.windowMs,
                ),
              ).toBeLessThanOrEqual(rule.limit);
            }
          }
          const reported = new Map<Intent, number>();
          for (const rep of r.reports) {
            if (rep.kind === "substitution_failed") continue; // a request of the queue's, no intent
            reported.set(rep.intent, (reported.get(rep.intent) ?? 0) + 1);
          }
          for (const intent of intents) {
            const label = `${intent.kind} ${"clientOrderId" in intent ? intent.clientOrderId : intent.marketId}`;
            expect(reported.get(intent), label).toBe(1);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
