import { describe, expect, it } from "vitest";
import { GATE_MAX_BLOCK_MS } from "../../../src/execution/rate-budget-wait.js";
import { cancel, cancelAll, place, rig, runUntil } from "./order-queue.helpers.js";

// ops8 acceptance pass: `POST /__admin/fail-next {count: 25, status: 429, retryAfterSeconds: 300}` on
// a paper run held every placement, cancel and cancel-all for 300 s (mm_queue_bucket_remaining 0 on
// all three, no warn line beyond "placement rejected"); the quotes already resting could not be
// cancelled, and a SIGINT 17 s later ended "stopped (12 order(s) may still be open)", exit 1. The
// order reads' hold of the same 429 is capped at GATE_MAX_BLOCK_MS (60 s, the longest window of the
// spec's rate table: Retry-After "holds the same delta seconds" as X-RateLimit-Reset); the writes'
// hold was not (order-queue-send.ts #blockIfLimited passed Retry-After to budget.block uncapped);
// RateBudget.block caps every hold now, whoever asks.
describe("a 429 with an over-long Retry-After on a write", () => {
  it("holds the next cancel for at most 60 s, as the order reads, not the 300 s asked", async () => {
    const r = rig({ queue: { stillDesired: () => true } });
    r.port.script("cancel", { kind: "limited", retryAfterMs: 300_000 });
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 10);
    r.queue.enqueue(cancel("c2", "o-2"));
    await runUntil(r.clock, 310_000);
    const c2 = r.port.of("cancel").find((c) => c.orderId === "o-2");
    expect(c2?.sentAt).toBeDefined();
    expect(c2?.sentAt ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(GATE_MAX_BLOCK_MS + 100);
  });

  it("holds the next cancel-all (the kill switch's and the stop's) for at most 60 s", async () => {
    const r = rig({ queue: { stillDesired: () => true } });
    r.port.script("cancel_all", { kind: "limited", retryAfterMs: 300_000 });
    r.queue.enqueue(cancelAll("m1"));
    await runUntil(r.clock, 10);
    r.queue.enqueue(cancelAll(undefined));
    await runUntil(r.clock, 310_000);
    const sent = r.port.of("cancel_all").map((c) => c.sentAt);
    expect(sent).toHaveLength(2);
    expect(sent[1] ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(GATE_MAX_BLOCK_MS + 100);
  });

  it("holds the next placement for at most 60 s", async () => {
    const r = rig({ queue: { stillDesired: () => true } });
    r.port.script("place", { kind: "limited", retryAfterMs: 300_000 });
    r.queue.enqueue(place("p1", { token: "a" }));
    await runUntil(r.clock, 10);
    r.queue.enqueue(place("p2", { token: "b" }));
    await runUntil(r.clock, 310_000);
    const p2 = r.port.of("place").find((c) => c.clientOrderId === "p2");
    expect(p2?.sentAt ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(GATE_MAX_BLOCK_MS + 100);
  });

  it("says so once per op and episode, at warn", async () => {
    const warns: Record<string, unknown>[] = [];
    const log = { warn: (o: Record<string, unknown>) => void warns.push(o) };
    const r = rig({ queue: { stillDesired: () => true }, budget: { log } });
    r.port.script(
      "cancel",
      { kind: "limited", retryAfterMs: 300_000 },
      { kind: "limited", retryAfterMs: 300_000 },
    );
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 10);
    r.queue.enqueue(cancel("c2", "o-2"));
    await runUntil(r.clock, 130_000);
    expect(r.port.of("cancel").length).toBeGreaterThanOrEqual(2);
    expect(warns).toEqual([{ op: "cancel", retryAfterMs: 300_000, heldMs: GATE_MAX_BLOCK_MS }]);
  });
});
