import { describe, expect, it } from "vitest";
import { cancel, cancelAll, place, rig, runUntil } from "./order-queue.helpers.js";

/**
 * A placement answered retryable (429, 503) is re-queued once while still desired. If the queue then
 * takes it out without sending it again (shed, cancel-all, a cancel, close), it was still sent once:
 * its report is that answer (`place`, rejected, retryable), never `place_dropped` ("never sent").
 */
describe("OrderQueue: a re-queued placement dropped before its second send", () => {
  const desired = { stillDesired: () => true };

  it("is reported with its 429 when shed (a calm requote behind a Retry-After past the horizon)", async () => {
    const r = rig({ queue: desired, port: { latency: () => ({ inMs: 1, outMs: 4 }) } });
    r.port.script("place", { kind: "limited", retryAfterMs: 2_000 });
    r.queue.enqueue(place("calm", { urgency: 1 }));
    await runUntil(r.clock, 5_000);
    expect(r.port.of("place")).toHaveLength(1);
    expect(r.of("place_dropped")).toEqual([]);
    const [rep] = r.of("place");
    expect(r.of("place")).toHaveLength(1);
    expect(rep?.intent.clientOrderId).toBe("calm");
    expect(rep?.outcome).toMatchObject({ kind: "rejected", code: "rate_limited", retryable: true });
    expect([rep?.sentAt, rep?.answeredAt]).toEqual([0, 5]); // the times of the one send
    expect(r.queue.stats).toMatchObject({ requeued: 1, shed: 1 }); // the queue's decision still counts
  });

  it("an urgent one is not shed: it is sent again after the Retry-After and its second answer counts", async () => {
    const r = rig({ queue: desired });
    r.port.script("place", { kind: "limited", retryAfterMs: 2_000 });
    r.queue.enqueue(place("urgent", { urgency: 9 }));
    await runUntil(r.clock, 5_000);
    expect(r.port.of("place").map((c) => c.sentAt)).toEqual([0, 2_000]);
    expect(r.of("place").map((p) => p.outcome.kind)).toEqual(["accepted"]);
    expect(r.queue.stats.shed).toBe(0);
  });

  it("is reported with its 429 when the kill switch drops it", async () => {
    const r = rig({ queue: desired });
    r.port.script("place", { kind: "limited", retryAfterMs: 200 });
    r.queue.enqueue(place("p", { urgency: 9 }));
    await runUntil(r.clock, 50); // answered 429, waiting in the lane for the Retry-After
    r.queue.enqueue(cancelAll(undefined));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("place")).toHaveLength(1);
    expect(r.of("place_dropped")).toEqual([]);
    expect(r.of("place").map((p) => [p.intent.clientOrderId, p.outcome.kind])).toEqual([["p", "rejected"]]);
    expect(r.of("cancel_all").map((c) => c.outcome.kind)).toEqual(["done"]);
  });

  it("is reported with its 503 when closing drops it, and close() still resolves", async () => {
    const r = rig({ queue: desired, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.port.script("place", { kind: "unavailable" });
    r.queue.enqueue(place("p", { urgency: 9 })); // answered 503 at t = 10
    await runUntil(r.clock, 5);
    r.queue.enqueue(cancelAll("m1")); // in flight until t = 15: "p", re-queued at 10, waits for it
    await runUntil(r.clock, 12);
    let closed = false;
    void r.queue.close().then(() => {
      closed = true;
    });
    await runUntil(r.clock, 1_000);
    expect(closed).toBe(true);
    expect(r.port.of("place")).toHaveLength(1);
    expect(r.of("place_dropped")).toEqual([]);
    expect(r.of("place")[0]?.outcome).toMatchObject({ kind: "rejected", code: "exchange_unavailable" });
    expect(r.queue.stats.requeued).toBe(1);
  });

  it("a cancel of it needs no request: the placement is reported rejected, the cancel not_sent", async () => {
    const r = rig({ queue: desired });
    r.port.script("place", { kind: "limited", retryAfterMs: 200 });
    r.queue.enqueue(place("p", { urgency: 9 }));
    await runUntil(r.clock, 50);
    r.queue.enqueue(cancel("p", undefined));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("place")).toHaveLength(1);
    expect(r.port.of("cancel")).toEqual([]);
    expect(r.of("place").map((p) => p.outcome.kind)).toEqual(["rejected"]);
    expect(r.of("cancel")[0]?.outcome).toEqual({ kind: "not_sent", reason: "placement_rejected" });
    expect(r.queue.stats.cancelledUnsent).toBe(1);
  });

  it("a placement never sent is still reported as dropped", async () => {
    const r = rig({ queue: desired, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.port.script("place", { kind: "limited", retryAfterMs: 200 });
    r.queue.enqueue(place("sent", { urgency: 9 }));
    await runUntil(r.clock, 50);
    r.queue.enqueue(place("unsent", { token: "b", urgency: 9 })); // blocked by the 429 too
    r.queue.enqueue(cancelAll(undefined));
    await runUntil(r.clock, 1_000);
    expect(r.of("place_dropped").map((d) => [d.intent.clientOrderId, d.reason])).toEqual([
      ["unsent", "cancel_all"],
    ]);
    expect(r.of("place").map((p) => p.intent.clientOrderId)).toEqual(["sent"]);
  });

  it("is not re-queued while another placement of its level is in flight: two orders could rest there", async () => {
    // "a" is answered 503 at t = 10; "b" for the same (token, side, level) was sent at t = 2 and is
    // answered at t = 12. Re-queued, "a" would be sent again beside "b" (the engine never sends
    // "b" while "a" is unanswered; the queue must not rely on that).
    let t = 0;
    const r = rig({ queue: desired, port: { latency: () => ({ inMs: 1, outMs: 9 - 2 * t++ }) } });
    r.port.script("place", { kind: "unavailable" });
    r.queue.enqueue(place("a", { urgency: 9 }));
    await runUntil(r.clock, 2);
    r.queue.enqueue(place("b", { urgency: 9, price: 510_000 }));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("place").map((c) => [c.clientOrderId, c.sentAt])).toEqual([
      ["a", 0],
      ["b", 2],
    ]);
    expect(r.queue.stats.requeued).toBe(0);
    expect(r.of("place").map((p) => [p.intent.clientOrderId, p.outcome.kind])).toEqual([
      ["a", "rejected"],
      ["b", "accepted"],
    ]);
  });
});
