import { describe, expect, it } from "vitest";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { GATE_MAX_BLOCK_MS, MIN_BLOCK_MS } from "../../../src/execution/rate-budget-hold.js";

/*
 * The 60 s cap on one Retry-After used to live in the two callers of RateBudget.block (the order
 * reads' gate and the queue's sender), each through its own OverLongRetryAfter: any other caller
 * held its op for whatever it passed. The budget applies it now, for every caller.
 */

/** A hand-written warn sink. */
function warnings() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, log: { warn: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } };
}

describe("RateBudget.block: the cap on one hold", () => {
  it("holds an op at most GATE_MAX_BLOCK_MS whoever asks, and says what it held", () => {
    const { log } = warnings();
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, log });
    expect(b.block("cancel", 1_000, 300_000)).toBe(GATE_MAX_BLOCK_MS);
    expect(b.nextAvailableAt("cancel", 1_000)).toBe(1_000 + GATE_MAX_BLOCK_MS);
    expect(b.available("cancel", 1_000 + GATE_MAX_BLOCK_MS)).toBeGreaterThanOrEqual(1);
  });

  it("honours a hold within the cap exactly, with no warning", () => {
    const { lines, log } = warnings();
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, log });
    expect(b.block("place", 0, 45_000)).toBe(45_000);
    expect(b.nextAvailableAt("place", 0)).toBe(45_000);
    expect(lines).toEqual([]);
  });

  it("warns once per op and episode; an answer that is not a 429 ends the episode", () => {
    const { lines, log } = warnings();
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, log });
    b.block("order_reads", 0, 300_000);
    b.block("order_reads", 60_000, 240_000); // still limited: the same episode
    b.block("cancel", 0, 300_000); // another op: its own episode
    expect(lines.map((l) => l.obj)).toEqual([
      { op: "order_reads", retryAfterMs: 300_000, heldMs: GATE_MAX_BLOCK_MS },
      { op: "cancel", retryAfterMs: 300_000, heldMs: GATE_MAX_BLOCK_MS },
    ]);
    expect(lines[0]?.msg).toMatch(/Retry-After/);
    b.answered("order_reads");
    b.block("order_reads", 120_000, 3_600_000);
    expect(lines).toHaveLength(3);
  });

  it("takes its cap from the options", () => {
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, maxBlockMs: 5_000 });
    expect(b.block("cancel_all", 0, 300_000)).toBe(5_000);
    expect(b.nextAvailableAt("cancel_all", 0)).toBe(5_000);
  });

  // Session 17: the 100 ms floor (MIN_BLOCK_MS) was applied after the cap, so a budget built with a
  // maxBlockMs of 50 held every 429 for 100 ms: the floor, a guess at a server's rounding, overrode
  // the caller's explicit promise that no hold lasts longer. The cap wins now.
  it("an explicit cap below MIN_BLOCK_MS wins over the floor, without an over-long warning", () => {
    const { lines, log } = warnings();
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, maxBlockMs: 50, log });
    expect(b.block("cancel", 0, 0)).toBe(50);
    expect(b.nextAvailableAt("cancel", 0)).toBe(50);
    expect(b.block("place", 0, 30)).toBe(50);
    expect(lines).toEqual([]);
    expect(new RateBudget({ rateLimitPerMin: 600, maxBlockMs: 0 }).block("cancel", 0, 0)).toBe(0);
  });

  it("keeps the floor under a cap above it", () => {
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, maxBlockMs: 5_000 });
    expect(b.block("cancel", 0, 0)).toBe(MIN_BLOCK_MS);
  });

  it("refuses a cap that is negative or not finite", () => {
    for (const maxBlockMs of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new RateBudget({ rateLimitPerMin: 600, maxBlockMs })).toThrow(/maxBlockMs/);
  });
});
