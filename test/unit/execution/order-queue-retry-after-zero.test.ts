import { describe, expect, it } from "vitest";
import { MIN_BLOCK_MS } from "../../../src/execution/rate-budget-hold.js";
import { cancel, rig, runUntil } from "./order-queue.helpers.js";

// Review 16 (queue): the spec allows `Retry-After: 0`, and a server rounding its delta seconds down
// sends it with up to 999 ms of the window left. Held for 0 ms, a cancel answered so was sent again
// in the same millisecond, three times (maxCancelAttempts), and reported failed: its retries spent in
// one instant. Every hold now lasts at least MIN_BLOCK_MS.
describe("a 429 with Retry-After: 0", () => {
  it("holds the cancel's retry at least MIN_BLOCK_MS apart, not in the same millisecond", async () => {
    const r = rig({ queue: { stillDesired: () => true } });
    r.port.script("cancel", { kind: "limited", retryAfterMs: 0 }, { kind: "limited", retryAfterMs: 0 });
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 5_000);
    const sent = r.port.of("cancel").map((c) => c.sentAt);
    expect(sent).toHaveLength(3);
    expect((sent[1] ?? 0) - (sent[0] ?? 0)).toBeGreaterThanOrEqual(MIN_BLOCK_MS);
    expect((sent[2] ?? 0) - (sent[1] ?? 0)).toBeGreaterThanOrEqual(MIN_BLOCK_MS);
    expect(r.of("cancel")[0]?.outcome.kind).toBe("done");
  });
});
