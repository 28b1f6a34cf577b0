import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/core/clock.js";
import type { SimClock } from "../../../src/core/sim-clock.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { cancel, cancelAll, place, rig, runUntil, testSign } from "./order-queue.helpers.js";

describe("OrderQueue priorities", () => {
  it("sends cancel-all, then cancels, then placements by urgency (far from desired first)", async () => {
    const r = rig({ queue: { concurrency: 1 }, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.queue.enqueueAll([
      place("calm", { token: "a", urgency: 1 }),
      place("far", { token: "b", urgency: 9 }),
      cancel("c1", "o-x", "m2"),
      place("mid", { token: "c", urgency: 4 }),
      cancelAll("m3"),
    ]);
    await runUntil(r.clock, 1_000);
    expect(r.port.calls.map((c) => c.clientOrderId ?? c.orderId ?? `all:${c.marketId}`)).toEqual([
      "all:m3",
      "o-x",
      "far",
      "mid",
      "calm",
    ]);
  });

  it("the kill switch goes first, drops queued placements and covers queued cancels", async () => {
    const r = rig({
      queue: { concurrency: 1, cancelSlots: 0 },
      port: { latency: () => ({ inMs: 1, outMs: 9 }) },
    });
    r.queue.enqueue(place("p0", { token: "a" })); // in flight (concurrency 1) while the rest queue up
    await runUntil(r.clock, 0); // p0 signed and sent
    r.queue.enqueueAll([place("p1", { token: "b" }), cancel("c1", "o-1"), cancel("c2", "o-2", "m2")]);
    r.queue.enqueue(cancelAll(undefined));
    await runUntil(r.clock, 1_000);
    expect(r.port.calls.map((c) => c.op)).toEqual(["place", "cancel_all"]);
    expect(r.of("place_dropped").map((d) => [d.intent.clientOrderId, d.reason])).toEqual([
      ["p1", "cancel_all"],
    ]);
    expect(r.of("cancel").map((x) => x.outcome.kind)).toEqual(["covered", "covered"]);
    expect(r.of("cancel_all")[0]?.outcome).toEqual({ kind: "done", cancelled: 3, marketId: undefined });
  });

  it("placements of a market wait while its cancel-all is in flight, others do not", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 5, outMs: 45 }) } });
    r.queue.enqueue(cancelAll("m1"));
    r.queue.enqueueAll([place("in-m1", { market: "m1" }), place("in-m2", { market: "m2", token: "t2" })]);
    await runUntil(r.clock, 1_000);
    const at = (coid: string) => r.port.calls.find((c) => c.clientOrderId === coid)?.sentAt;
    expect(at("in-m2")).toBe(0);
    expect(at("in-m1")).toBe(50);
  });
});

describe("OrderQueue supersede and local cancels", () => {
  it("drops a queued placement superseded by a newer one for the same (token, side, level)", async () => {
    const r = rig({ queue: { concurrency: 1 }, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.queue.enqueue(place("first", { token: "a" }));
    r.queue.enqueue(place("old", { token: "b", price: 480_000 }));
    r.queue.enqueue(place("other-side", { token: "b", side: "sell", price: 520_000 }));
    r.queue.enqueue(place("new", { token: "b", price: 490_000 }));
    await runUntil(r.clock, 1_000);
    // "new" takes "old"'s place in line, ahead of "other-side" (queued after "old").
    expect(r.port.of("place").map((c) => c.clientOrderId)).toEqual(["first", "new", "other-side"]);
    expect(r.of("place_dropped").map((d) => [d.intent.clientOrderId, d.reason])).toEqual([
      ["old", "superseded"],
    ]);
    expect(r.queue.stats.superseded).toBe(1);
  });

  it("cancels an unsent placement locally instead of sending anything", async () => {
    const r = rig({ queue: { concurrency: 1 }, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.queue.enqueueAll([place("busy", { token: "a" }), place("x", { token: "b" })]);
    r.queue.enqueue(cancel("x", undefined));
    await runUntil(r.clock, 1_000);
    expect(r.port.calls.map((c) => c.clientOrderId)).toEqual(["busy"]);
    expect(r.of("place_dropped")[0]).toMatchObject({ reason: "cancelled_unsent" });
    expect(r.of("cancel")[0]?.outcome).toEqual({ kind: "not_sent", reason: "placement_dropped" });
  });

  it("holds a cancel of an in-flight placement until its orderId is known", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 10, outMs: 10 }) } });
    r.queue.enqueue(place("y"));
    await runUntil(r.clock, 5);
    r.queue.enqueue(cancel("y", undefined));
    expect(r.queue.depth().awaitingOrderId).toBe(1);
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")[0]).toMatchObject({ orderId: "o-1", sentAt: 20 });
    expect(r.of("cancel")[0]?.outcome).toEqual({ kind: "done", orderId: "o-1", status: "CANCELLED" });
  });

  it("settles a waiting cancel without sending when its placement is rejected or ambiguous", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 10, outMs: 10 }) } });
    r.port.script(
      "place",
      { kind: "reject", code: "insufficient_funds", status: 201 },
      { kind: "ambiguous" },
    );
    r.queue.enqueueAll([place("rej", { token: "a" }), place("amb", { token: "b" })]);
    await runUntil(r.clock, 5);
    r.queue.enqueueAll([cancel("rej", undefined), cancel("amb", undefined)]);
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")).toHaveLength(0);
    expect(r.of("cancel").map((c) => c.outcome.kind)).toEqual(["not_sent", "ambiguous"]);
  });
});

describe("OrderQueue signing", () => {
  it("withdraws a placement whose cancel arrives while it is being signed, and gives its token back", async () => {
    const slowSigner = (clock: SimClock) => async (i: PlaceIntent) => {
      await sleep(clock, 5); // a remote signer taking 5 ms
      return testSign(i);
    };
    const r = rig({ signer: slowSigner });
    r.queue.enqueue(place("x"));
    expect(r.budget.available("place", 0)).toBe(49); // reserved while signing
    await runUntil(r.clock, 2);
    r.queue.enqueue(cancel("x", undefined));
    await runUntil(r.clock, 100);
    expect(r.port.calls).toHaveLength(0);
    expect(r.of("place_dropped")[0]).toMatchObject({ reason: "cancelled_unsent" });
    expect(r.of("cancel")[0]?.outcome).toEqual({ kind: "not_sent", reason: "placement_dropped" });
    expect(r.budget.available("place", 100)).toBe(50);
  });

  it("reports a signing failure as a definite reject without sending, and releases the token", async () => {
    const r = rig({
      queue: {
        sign: (i) => {
          if (i.clientOrderId === "bad") throw new Error("signer unreachable");
          return testSign(i);
        },
      },
    });
    r.queue.enqueueAll([place("bad", { token: "a" }), place("good", { token: "b" })]);
    await runUntil(r.clock, 10);
    expect(r.port.calls.map((c) => c.clientOrderId)).toEqual(["good"]);
    expect(r.of("place").find((p) => p.intent.clientOrderId === "bad")?.outcome).toMatchObject({
      kind: "rejected",
      code: "sign_failed",
      retryable: false,
    });
    expect(r.budget.available("place", 10)).toBe(49);
  });
});

describe("OrderQueue outcomes", () => {
  it("reports accepted, rejected with its code, and ambiguous; never resends an ambiguous placement", async () => {
    const r = rig({ queue: { stillDesired: () => true } });
    r.port.script("place", { kind: "reject", code: "fee_too_high", status: 400 }, { kind: "ambiguous" });
    r.queue.enqueueAll([place("a", { token: "a" }), place("b", { token: "b" }), place("c", { token: "c" })]);
    await runUntil(r.clock, 5_000);
    const out = r.of("place").map((p) => [p.intent.clientOrderId, p.outcome.kind]);
    expect(out).toEqual([
      ["a", "rejected"],
      ["b", "ambiguous"],
      ["c", "accepted"],
    ]);
    expect(r.of("place")[0]?.outcome).toMatchObject({ code: "fee_too_high", retryable: false });
    expect(r.port.of("place")).toHaveLength(3);
  });

  it("re-queues a retryable reject once, only while still desired", async () => {
    const r = rig({ queue: { stillDesired: (i) => i.clientOrderId !== "unwanted" } });
    r.port.script("place", { kind: "unavailable" }, { kind: "unavailable" }, { kind: "unavailable" });
    r.queue.enqueueAll([place("wanted", { token: "a" }), place("unwanted", { token: "b" })]);
    await runUntil(r.clock, 5_000);
    expect(r.port.of("place").map((c) => c.clientOrderId)).toEqual(["wanted", "unwanted", "wanted"]);
    expect(r.of("place").map((p) => [p.intent.clientOrderId, p.outcome.kind])).toEqual([
      ["unwanted", "rejected"],
      ["wanted", "rejected"],
    ]);
    expect(r.queue.stats.requeued).toBe(1);
  });

  it("retries a retryable cancel up to maxCancelAttempts, then reports it failed", async () => {
    const r = rig({ queue: { maxCancelAttempts: 2 } });
    r.port.script("cancel", { kind: "unavailable" }, { kind: "unavailable" });
    r.queue.enqueue(cancel("c", "o-9"));
    await runUntil(r.clock, 5_000);
    expect(r.port.of("cancel")).toHaveLength(2);
    expect(r.of("cancel")[0]?.outcome).toMatchObject({
      kind: "failed",
      code: "exchange_unavailable",
      retryable: true,
    });
  });

  it("reports a definite cancel reject (not_cancellable) at once", async () => {
    const r = rig();
    r.port.script("cancel", { kind: "reject", code: "not_cancellable", status: 409 });
    r.queue.enqueue(cancel("c", "o-9"));
    await runUntil(r.clock, 1_000);
    expect(r.of("cancel")[0]?.outcome).toMatchObject({
      kind: "failed",
      code: "not_cancellable",
      retryable: false,
    });
  });

  it("turns cancel-all off after a 501 and sends the covered cancels one by one", async () => {
    const r = rig({
      queue: { concurrency: 1, cancelSlots: 0 },
      port: { latency: () => ({ inMs: 1, outMs: 9 }) },
    });
    r.port.script("cancel_all", { kind: "reject", code: "not_implemented", status: 501 });
    r.queue.enqueue(cancelAll("m9")); // in flight while the rest queue up
    r.queue.enqueueAll([cancel("c1", "o-1"), cancel("c2", "o-2")]);
    r.queue.enqueue(cancelAll("m1")); // absorbs c1 and c2
    await runUntil(r.clock, 1_000);
    expect(r.queue.cancelAllAvailable).toBe(false);
    expect(r.port.of("cancel_all")).toHaveLength(1);
    expect(r.port.of("cancel").map((c) => c.orderId)).toEqual(["o-1", "o-2"]);
    expect(r.of("cancel_all").map((c) => c.outcome.kind)).toEqual(["failed", "failed"]);
  });

  it("close() drops queued placements and resolves once queued cancels are answered", async () => {
    const r = rig({ budget: { rateLimitPerMin: 60 } }); // place 5/s, cancel 2/s
    r.queue.enqueueAll([
      ...Array.from({ length: 8 }, (_, i) => place(`p${i}`, { token: `t${i}`, urgency: 9 })),
      ...Array.from({ length: 4 }, (_, i) => cancel(`c${i}`, `o-c${i}`)),
    ]);
    let closed = false;
    void r.queue.close().then(() => {
      closed = true;
    });
    await runUntil(r.clock, 500);
    expect(closed).toBe(false);
    await runUntil(r.clock, 3_000);
    expect(closed).toBe(true);
    expect(r.port.of("place")).toHaveLength(5);
    expect(r.port.of("cancel")).toHaveLength(4);
    expect(r.of("place_dropped").filter((d) => d.reason === "closed")).toHaveLength(3);
  });
});
