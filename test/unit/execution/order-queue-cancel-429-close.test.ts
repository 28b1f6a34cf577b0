import { describe, expect, it } from "vitest";
import { cancel, cancelAll, rig, runUntil } from "./order-queue.helpers.js";

// Review 17 (r2exec), bec5a29: a 429 no longer spends an attempt of a single cancel, so a cancel
// answered 429 is retried until answered otherwise. A single cancel in flight when the stop's
// cancel-all of its market is taken in is not covered by it (only queued cancels are); when it came
// back 429 it was re-queued beside a cancel-all that already cleared its market, and, on an endpoint
// that keeps answering 429 (a proxy ban on /cancel; the cancel-all bucket is separate), the queue's
// close() — which shutdown awaits before its open-orders sweep — waited until the stop's deadline.
// Now a 429'd cancel goes to a cancel-all of its scope that clears its order (queued, in flight, or
// done), and once the queue is closing a 429 spends an attempt again.
const limited = { kind: "limited", retryAfterMs: 1_000 } as const;
const forever = Array.from({ length: 500 }, () => limited);

describe("stop: a single cancel looping on 429 after its market's cancel-all succeeded", () => {
  it("does not hold queue.close() (and the shutdown sweep) for ever", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 20, outMs: 20 }) } });
    r.port.script("cancel", ...forever);
    r.queue.enqueue(cancel("c1", "o-1", "m1"));
    await runUntil(r.clock, 5); // c1 in flight
    r.queue.enqueue(cancelAll("m1")); // the stop's cancel-all of the market
    let closed = false;
    void r.queue.close().then(() => {
      closed = true;
    });
    await runUntil(r.clock, 30_000);
    expect(r.of("cancel_all").map((c) => c.outcome.kind)).toEqual(["done"]);
    expect(closed).toBe(true);
  });
});

describe("a single cancel answered 429 beside a cancel-all of its market", () => {
  it("rides on a cancel-all in flight that left after it was enqueued, and is covered when it succeeds", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 20, outMs: 20 }) } });
    r.port.script("cancel", ...forever);
    r.queue.enqueue(cancel("c1", "o-1", "m1"));
    await runUntil(r.clock, 5);
    r.queue.enqueue(cancelAll("m1"));
    await runUntil(r.clock, 10_000);
    expect(r.port.of("cancel")).toHaveLength(1);
    expect(r.of("cancel").map((c) => c.outcome)).toEqual([{ kind: "covered", marketId: "m1", cancelled: 3 }]);
  });

  it("is covered by one that already succeeded, sent after the cancel was enqueued", async () => {
    let n = 0;
    const slowFirst = () => (n++ === 0 ? { inMs: 50, outMs: 50 } : { inMs: 1, outMs: 1 });
    const r = rig({ port: { latency: slowFirst } });
    r.port.script("cancel", ...forever);
    r.queue.enqueue(cancel("c1", "o-1", "m2"));
    await runUntil(r.clock, 5);
    r.queue.enqueue(cancelAll(undefined)); // the kill switch: every market, done at 7
    await runUntil(r.clock, 10_000);
    expect(r.port.of("cancel")).toHaveLength(1);
    expect(r.of("cancel").map((c) => c.outcome)).toEqual([
      { kind: "covered", marketId: undefined, cancelled: 3 },
    ]);
  });

  it("is not covered by a cancel-all sent before it was enqueued (its order may postdate it)", async () => {
    let n = 0;
    const slowFirst = () => (n++ === 0 ? { inMs: 50, outMs: 50 } : { inMs: 1, outMs: 1 });
    const r = rig({ port: { latency: slowFirst } });
    r.port.script("cancel", limited, limited);
    r.queue.enqueue(cancelAll("m1")); // in flight 0..100
    await runUntil(r.clock, 10);
    r.queue.enqueue(cancel("c1", "o-1", "m1"));
    await runUntil(r.clock, 10_000);
    expect(r.port.of("cancel")).toHaveLength(3);
    expect(r.of("cancel").map((c) => c.outcome.kind)).toEqual(["done"]);
  });
});

describe("a closing queue: a 429 spends a single cancel's attempt again", () => {
  it("fails the cancel after maxCancelAttempts, so close() resolves and the stop's sweep takes over", async () => {
    const r = rig();
    r.port.script("cancel", ...forever);
    r.queue.enqueue(cancel("c1", "o-1", "m1"));
    let closedAt: number | undefined;
    void r.queue.close().then(() => {
      closedAt = r.clock.now();
    });
    await runUntil(r.clock, 30_000);
    expect(r.port.of("cancel").map((c) => c.sentAt)).toEqual([0, 1_000, 2_000]);
    expect(r.of("cancel").map((c) => c.outcome.kind)).toEqual(["failed"]);
    expect(closedAt).toBe(2_000);
  });
});
