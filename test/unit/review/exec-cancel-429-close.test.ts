import { describe, expect, it } from "vitest";
import { cancel, cancelAll, rig, runUntil } from "../execution/order-queue.helpers.js";

// Review 17 (r2exec), bec5a29: a 429 no longer spends an attempt of a single cancel, so a cancel
// answered 429 is retried until answered otherwise. A single cancel in flight when the stop's
// cancel-all of its market is taken in is not covered by it (only queued cancels are); when it comes
// back 429 it is re-queued beside a cancel-all that already cleared its market, and, on an endpoint
// that keeps answering 429 (a proxy ban on /cancel; the cancel-all bucket is separate), the queue's
// close() — which shutdown awaits before its open-orders sweep — waits until the stop's deadline.
// Before bec5a29 it failed after 3 attempts and the sweep ran. Pinned: close() resolves promptly once
// the market's cancel-all is done.
describe("stop: a single cancel looping on 429 after its market's cancel-all succeeded", () => {
  it("does not hold queue.close() (and the shutdown sweep) for ever", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 20, outMs: 20 }) } });
    const limited = { kind: "limited", retryAfterMs: 1_000 } as const;
    r.port.script("cancel", ...Array.from({ length: 500 }, () => limited));
    r.queue.enqueue(cancel("c1", "o-1", "m1"));
    await runUntil(r.clock, 5); // c1 in flight
    r.queue.enqueue(cancelAll("m1")); // the stop's cancel-all of the market
    let closed = false;
    void r.queue.close().then(() => {
      closed = true;
    });
    await runUntil(r.clock, 30_000);
    expect(r.of("cancel_all").map((c) => c.outcome.kind)).toEqual(["done"]);
    // The cancel-all cleared m1; the stray single cancel keeps drawing 429s.
    expect(closed).toBe(true);
  });
});
