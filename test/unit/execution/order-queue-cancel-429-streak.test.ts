import { describe, expect, it } from "vitest";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { MIN_BLOCK_MS } from "../../../src/execution/rate-budget-hold.js";
import { cancel, cancelAll, rig, runUntil } from "./order-queue.helpers.js";

// Session 17: a server that rounds its delta seconds down answers `Retry-After: 0` with up to 999 ms
// of its window left. Each 429 held the cancel op a flat MIN_BLOCK_MS and spent one of the cancel's
// three attempts: all three went out within ~200 ms, inside the same second, and the cancel ended as
// a retryable failure — its quote left resting until the next requote. A 429 now spends no attempt
// of a single cancel, and each retry answered 429 again holds twice as long as the last.
describe("a cancel answered 429 with Retry-After: 0 again and again", () => {
  it("is retried with doubling holds until it is done, not reported failed after three tries", async () => {
    const r = rig();
    const zero = { kind: "limited", retryAfterMs: 0 } as const;
    r.port.script("cancel", zero, zero, zero, zero);
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 10_000);
    const sent = r.port.of("cancel").map((c) => c.sentAt);
    expect(sent).toEqual([0, 100, 300, 700, 1_500]);
    expect(r.of("cancel").map((c) => c.outcome.kind)).toEqual(["done"]);
  });

  it("honours an honest Retry-After as sent however often it comes: no doubling (the fault suite's 429 storm)", async () => {
    const r = rig();
    const oneSecond = { kind: "limited", retryAfterMs: 1_000 } as const;
    r.port.script("cancel", ...Array.from({ length: 8 }, () => oneSecond));
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 30_000);
    const sent = r.port.of("cancel").map((c) => c.sentAt);
    expect(sent).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000]);
    expect(r.of("cancel").map((c) => c.outcome.kind)).toEqual(["done"]);
  });

  it("still counts the attempts of other retryable answers (a 503)", async () => {
    const r = rig();
    r.port.script("cancel", { kind: "unavailable" }, { kind: "unavailable" }, { kind: "unavailable" });
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 10_000);
    expect(r.port.of("cancel")).toHaveLength(3);
    expect(r.of("cancel")[0]?.outcome.kind).toBe("failed");
  });

  it("keeps a cancel-all's attempts (its cancels then go singly), spread by the doubling holds", async () => {
    const r = rig();
    const zero = { kind: "limited", retryAfterMs: 0 } as const;
    r.port.script("cancel_all", zero, zero, zero);
    r.queue.enqueue(cancelAll("m1"));
    await runUntil(r.clock, 10_000);
    expect(r.port.of("cancel_all").map((c) => c.sentAt)).toEqual([0, 100, 300]);
    expect(r.of("cancel_all")[0]?.outcome.kind).toBe("failed");
  });
});

describe("RateBudget.rateLimited: the streak of 429s", () => {
  it("doubles the floor only for a retry answered 429 again, and an answer that is not a 429 ends it", () => {
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    expect(b.rateLimited("cancel", 0, 5, 0)).toBe(MIN_BLOCK_MS);
    // A second request of the same burst (sent before the hold began): the same step.
    expect(b.rateLimited("cancel", 1, 6, 0)).toBe(MIN_BLOCK_MS);
    expect(b.rateLimited("cancel", 106, 110, 0)).toBe(2 * MIN_BLOCK_MS);
    expect(b.rateLimited("cancel", 310, 311, 0)).toBe(4 * MIN_BLOCK_MS);
    // A Retry-After above the floor is honoured as sent.
    expect(b.rateLimited("cancel", 711, 712, 2_000)).toBe(2_000);
    b.answered("cancel");
    expect(b.rateLimited("cancel", 3_000, 3_001, 0)).toBe(MIN_BLOCK_MS);
    // Another op has a streak of its own.
    expect(b.rateLimited("place", 3_000, 3_001, 0)).toBe(MIN_BLOCK_MS);
  });

  it("doubles only over 429s with no usable wait: a usable Retry-After is held as sent and ends the streak", () => {
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0 });
    // An honest Retry-After: 1, retried on time, ten times in a row (reads and writes alike).
    for (let i = 0; i < 10; i++)
      expect(b.rateLimited("order_reads", i * 1_000, i * 1_000, 1_000)).toBe(1_000);
    // Below MIN_BLOCK_MS is no usable wait: a step of the streak.
    expect(b.rateLimited("cancel", 0, 0, 50)).toBe(MIN_BLOCK_MS);
    expect(b.rateLimited("cancel", 100, 100, 0)).toBe(2 * MIN_BLOCK_MS);
    expect(b.rateLimited("cancel", 300, 300, 1_000)).toBe(1_000);
    expect(b.rateLimited("cancel", 1_300, 1_300, 0)).toBe(MIN_BLOCK_MS);
    // Absent: the assumed wait (1 s), until the doubled floor passes it.
    const absent = [0, 1_000, 2_000, 3_000, 4_000].map((t) => b.rateLimited("place", t, t, undefined));
    expect(absent).toEqual([1_000, 1_000, 1_000, 1_000, 1_600]);
  });

  it("starts anew after a quiet spell, and stays within maxBlockMs", () => {
    const b = new RateBudget({ rateLimitPerMin: 600, marginMs: 0, maxBlockMs: 300 });
    expect(b.rateLimited("cancel", 0, 0, 0)).toBe(100);
    expect(b.rateLimited("cancel", 100, 100, 0)).toBe(200);
    expect(b.rateLimited("cancel", 300, 300, 0)).toBe(300);
    expect(b.rateLimited("cancel", 600, 600, 0)).toBe(300);
    expect(b.rateLimited("cancel", 120_000, 120_000, 0)).toBe(100);
  });
});
