import { describe, expect, it } from "vitest";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { LOWERED_LIMIT_LAPSE_MS, pacedBurst, ReportedLimit } from "../../../src/execution/reported-limit.js";
import { TokenBucket } from "../../../src/execution/token-bucket.js";

/** Session 25: the pace a bucket takes from X-RateLimit-Limit (src/execution/reported-limit.ts). */

/** A header as RateBudget.observe takes it: `resetMs` ahead of `now`. */
const view = (limit: number, remaining: number, resetMs: number, now: number) => ({
  limit,
  remaining,
  resetAt: now + resetMs,
  observedAt: now,
});

function logged() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) =>
    lines.push({ level, obj, msg });
  return { lines, log: { warn: at("warn"), info: at("info") } };
}

describe("ReportedLimit", () => {
  it("lowers to the reported limit, raises back no higher than the table, ignores a malformed one", () => {
    const r = new ReportedLimit(1000);
    expect(r.heard(500, 0)).toBe(500);
    expect(r.heard(0, 1)).toBe(500); // zero: never paced at 0
    expect(r.heard(Number.NaN, 2)).toBe(500);
    expect(r.heard(2.5, 3)).toBe(500);
    expect(r.heard(800, 4)).toBe(800); // back up, still below the table
    expect(r.heard(1200, 5)).toBe(1000); // the table is the ceiling
  });

  it("a figure far above the table is another bucket's: it raises nothing", () => {
    const r = new ReportedLimit(50);
    r.heard(25, 0);
    expect(r.heard(1000, 1)).toBe(25); // the IP's 1000 per 60 s, not the wallet's 50 per s
    expect(r.heard(60, 2)).toBe(50);
  });

  it("a lowered limit no header repeats lapses to the table; one repeated does not", () => {
    const r = new ReportedLimit(1000);
    r.heard(500, 0);
    expect(r.lapse(LOWERED_LIMIT_LAPSE_MS - 1)).toBe(500);
    r.heard(500, LOWERED_LIMIT_LAPSE_MS - 1); // confirmed
    expect(r.lapse(2 * LOWERED_LIMIT_LAPSE_MS - 2)).toBe(500);
    expect(r.lapse(2 * LOWERED_LIMIT_LAPSE_MS - 1)).toBe(1000);
  });

  it("the burst follows the pace: a whole-limit burst stays whole, ten seconds' worth stays so", () => {
    expect(pacedBurst(50, 50, 25)).toBe(25);
    expect(pacedBurst(1000, 167, 500)).toBe(84);
    expect(pacedBurst(1000, 167, 1)).toBe(1);
  });
});

describe("TokenBucket paced at a lowered limit", () => {
  it("refills at the lowered rate: 500 per 60 s sends one per ~120 ms once its burst is spent", () => {
    const b = new TokenBucket({ limit: 1000, windowMs: 60_000, marginMs: 50, burst: 167 });
    b.observe(view(500, 500, 60_000, 0), 0, 0);
    expect(b.capacity).toBe(500);
    let now = 0;
    const sends: number[] = [];
    while (sends.length < 200) {
      now = b.nextAvailableAt(now);
      b.take(now);
      sends.push(now);
    }
    // The burst (84 at 500 per 60 s) at once, then the reported rate: 60 050 ms / 500 ≈ 120 ms apart.
    expect(sends.filter((t) => t === 0)).toHaveLength(84);
    const gaps = sends.slice(85).map((t, i) => t - (sends[84 + i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(120);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(121);
  });
});

describe("RateBudget: the pace X-RateLimit-Limit sets", () => {
  it("logs one info line per change, and none while the header repeats the pace", () => {
    const { lines, log } = logged();
    const budget = new RateBudget({ rateLimitPerMin: 600, log });
    budget.observe("place", view(500, 400, 30_000, 1_000), 990, 1_000);
    budget.observe("place", view(500, 390, 29_000, 2_000), 1_990, 2_000);
    expect(lines).toEqual([
      {
        level: "info",
        obj: {
          op: "place",
          bucket: "place-ip",
          scope: "ip",
          limit: 500,
          tableLimit: 1000,
          windowMs: 60_000,
          perSecond: 8.333,
          reportedLimit: 500,
        },
        msg: "rate budget: pacing the bucket at the lower limit the exchange reports",
      },
    ]);
    const snap = budget.snapshot(2_000).find((s) => s.op === "place" && s.scope === "ip");
    expect(snap?.limit).toBe(500); // mm_queue_bucket_limit shows the pace
  });

  it("a lower limit on the wallet bucket scaled by rateLimitPerMin: paced at it, back to the scaled table when reported", () => {
    const { lines, log } = logged();
    const budget = new RateBudget({ rateLimitPerMin: 1200, log }); // wallet place 100 per s
    const wallet = () => budget.buckets("place").find((b) => b.windowMs === 1_000)?.capacity;
    budget.observe("place", view(50, 40, 1_000, 1_000), 995, 1_000); // granted 600, configured 1200
    expect(wallet()).toBe(50);
    budget.observe("place", view(150, 140, 1_000, 2_000), 1_995, 2_000);
    expect(wallet()).toBe(100); // never above the table's (configured) figure
    expect(lines.map((l) => l.msg)).toEqual([
      "rate budget: pacing the bucket at the lower limit the exchange reports",
      "rate budget: pacing the bucket at the table's limit again, as the exchange reports",
    ]);
  });

  it("the IP bucket never shown again goes back to the table 5 min after its last header, told at info", () => {
    const { lines, log } = logged();
    const budget = new RateBudget({ rateLimitPerMin: 600, log });
    const ip = () => budget.buckets("place").find((b) => b.windowMs === 60_000)?.capacity;
    budget.observe("place", view(500, 10, 20_000, 0), 0, 0);
    // From then on only the wallet's headers come back (the fewest left): they say nothing of the IP's.
    budget.observe("place", view(50, 42, 1_000, LOWERED_LIMIT_LAPSE_MS - 1), 0, LOWERED_LIMIT_LAPSE_MS - 1);
    expect(ip()).toBe(500);
    budget.observe("place", view(50, 42, 1_000, LOWERED_LIMIT_LAPSE_MS), 0, LOWERED_LIMIT_LAPSE_MS);
    expect(ip()).toBe(1000);
    expect(lines.at(-1)?.msg).toMatch(/no answer repeated the bucket's lower limit for 5 min/);
    expect(lines.at(-1)?.obj).not.toHaveProperty("reportedLimit");
  });

  it("a zero or malformed limit changes nothing", () => {
    const budget = new RateBudget({ rateLimitPerMin: 600 });
    budget.observe("cancel", view(0, 0, 1_000, 1_000), 995, 1_000);
    budget.observe("cancel", view(Number.NaN, 0, 1_000, 2_000), 1_995, 2_000);
    expect(budget.buckets("cancel").map((b) => b.capacity)).toEqual([20]);
  });
});
