import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load.js";
import { configError } from "./support.js";

// risk.errorRate trips on MORE than maxErrors counted order errors within windowMs. Every counted
// error answers one order request of the queue (placement, cancel, cancel-all), and the queue sends
// no more of them than its rate budget allows: a maxErrors those sends can never exceed is a halt
// that never trips. Defaults (queue.rateLimitPerMin 600, queue.ipLimitFactor 1, queue.concurrency 16):
// in windowMs 5000 plus the 10 000 ms the platform watch may hold an answer, the budget sends at most
// min(50 × 15, 1000 × 1) = 750 placements, 20 × 15 = 300 cancels and 5 × 15 = 75 cancel-alls, and
// 16 + 4 requests may already be in flight: 1145 errors at most, so maxErrors 1144 is the largest
// that can trip.

const risk = (errorRate: Record<string, number>) => ({ MM_RISK: JSON.stringify({ errorRate }) });
const linesOf = (env: Record<string, string>): string[] => configError(() => loadConfig({ env })).lines();

describe("risk.errorRate.maxErrors against what the rate limits let the queue send in the window", () => {
  it("refuses a maxErrors the order requests the budget allows in the window can never exceed", () => {
    expect(linesOf(risk({ maxErrors: 1145, windowMs: 5000 }))).toEqual([
      "risk.errorRate.maxErrors: must be ≤ 1144 for failing order requests to ever trip the halt, got 1145: it trips on more than maxErrors order errors within risk.errorRate.windowMs (5000 ms), each the answer to one order request, and at queue.rateLimitPerMin 600 and queue.ipLimitFactor 1 the order queue sends at most 1125 of them (750 placements, 300 cancels, 75 cancel-alls) in those 5000 ms and the 10000 ms before (answers the platform-status check may hold), with 20 more in flight (queue.concurrency 16 + 4 cancel slots); lower maxErrors or lengthen windowMs",
    ]);
  });

  it("accepts the largest maxErrors that can trip, and the same maxErrors once the window or the rate limit allows it", () => {
    expect(loadConfig({ env: risk({ maxErrors: 1144, windowMs: 5000 }) }).risk).toMatchObject({
      errorRate: { maxErrors: 1144, windowMs: 5000 },
    });
    // windowMs 6000: 50 × 16 = 800 placements, 320 cancels, 80 cancel-alls, + 20 in flight.
    expect(() => loadConfig({ env: risk({ maxErrors: 1145, windowMs: 6000 }) })).not.toThrow();
    // rateLimitPerMin 1200 doubles the wallet limits (placements stay under the IP's 1000 per 60 s).
    expect(() =>
      loadConfig({
        env: { ...risk({ maxErrors: 1145, windowMs: 5000 }), MM_QUEUE_RATE_LIMIT_PER_MIN: "1200" },
      }),
    ).not.toThrow();
  });

  it("reads the configured limits: a partner at rateLimitPerMin 1 sends one of each a second", () => {
    // windowMs 1000 + 10000: 11 placements, 11 cancels, 11 cancel-alls, + 1 + 4 in flight = 38.
    const env = { MM_QUEUE_RATE_LIMIT_PER_MIN: "1", MM_QUEUE_CONCURRENCY: "1" };
    expect(() => loadConfig({ env: { ...env, ...risk({ maxErrors: 37, windowMs: 1000 }) } })).not.toThrow();
    expect(linesOf({ ...env, ...risk({ maxErrors: 38, windowMs: 1000 }) })[0]).toMatch(
      /^risk\.errorRate\.maxErrors: must be ≤ 37 for failing order requests to ever trip the halt, got 38: .* at queue\.rateLimitPerMin 1 and queue\.ipLimitFactor 1 the order queue sends at most 33 of them \(11 placements, 11 cancels, 11 cancel-alls\) .* with 5 more in flight \(queue\.concurrency 1 \+ 4 cancel slots\)/,
    );
  });

  it("the default maxErrors (10) trips under any rate limit and window the schema accepts", () => {
    const env = { MM_QUEUE_RATE_LIMIT_PER_MIN: "1", MM_QUEUE_CONCURRENCY: "1" };
    expect(() => loadConfig({ env: { ...env, ...risk({ windowMs: 1000 }) } })).not.toThrow();
  });
});
