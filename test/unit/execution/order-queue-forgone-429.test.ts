import { describe, expect, it } from "vitest";
import type { QueueReport } from "../../../src/execution/order-queue-types.js";
import { cancel, place, rig, runUntil } from "./order-queue.helpers.js";

/**
 * A placement answered 429 (definitely not done) that the engine withdraws before its resend failed
 * no order: its report says so (`retryForgone`), and the engine does not count it towards the
 * error-rate halt. A paper start burst that outran the in-process mock's window had 18–22 placements
 * answered 429, each then superseded during the 1 s hold, and tripped the halt 2 s after start.
 * Only the first such 429 of a quote level is forgiven, and never a 429 to the resend itself, so an
 * exchange answering every placement 429 still counts towards the halt.
 */
describe("OrderQueue: a 429 the engine withdraws the placement before retrying", () => {
  const desired = { stillDesired: () => true };
  const forgone = (r: { of: (k: "place") => Extract<QueueReport, { kind: "place" }>[] }) =>
    r.of("place").map((p) => [p.intent.clientOrderId, p.outcome.kind, p.retryForgone === true]);

  it("is forgone when a newer price supersedes it during the hold", async () => {
    const r = rig({ queue: desired });
    r.port.script("place", { kind: "limited", retryAfterMs: 1_000 });
    r.queue.enqueue(place("p1", { urgency: 9 }));
    await runUntil(r.clock, 50); // answered 429, re-queued behind the 1 s hold
    r.queue.enqueue(place("p2", { urgency: 9, price: 510_000 })); // same level, new price
    await runUntil(r.clock, 3_000);
    expect(r.port.of("place")).toHaveLength(2);
    expect(forgone(r)).toEqual([
      ["p1", "rejected", true],
      ["p2", "accepted", false],
    ]);
  });

  it("is forgone when no longer desired at its answer, or cancelled before the resend", async () => {
    let wanted = false;
    const r = rig({ queue: { stillDesired: () => wanted } });
    r.port.script("place", { kind: "limited", retryAfterMs: 200 }, { kind: "limited", retryAfterMs: 200 });
    r.queue.enqueue(place("gone", { urgency: 9 })); // not desired when answered: reported at once
    await runUntil(r.clock, 500);
    wanted = true;
    r.queue.enqueue(place("cancelled", { token: "t2", urgency: 9 }));
    await runUntil(r.clock, 550); // re-queued
    r.queue.enqueue(cancel("cancelled", undefined));
    await runUntil(r.clock, 2_000);
    expect(forgone(r)).toEqual([
      ["gone", "rejected", true],
      ["cancelled", "rejected", true],
    ]);
  });

  it("counts a 429 to its resend (the last attempt)", async () => {
    const r = rig({ queue: desired });
    r.port.script("place", { kind: "limited", retryAfterMs: 200 }, { kind: "limited", retryAfterMs: 200 });
    r.queue.enqueue(place("p", { urgency: 9 }));
    await runUntil(r.clock, 2_000);
    expect(r.port.of("place")).toHaveLength(2);
    expect(forgone(r)).toEqual([["p", "rejected", false]]);
  });

  it("forgives one 429 a level until a placement there is answered otherwise", async () => {
    const r = rig({ queue: desired });
    const limited = { kind: "limited", retryAfterMs: 1_000 } as const;
    r.port.script("place", limited, limited);
    r.queue.enqueue(place("p1", { urgency: 9 }));
    await runUntil(r.clock, 50);
    r.queue.enqueue(place("p2", { urgency: 9, price: 510_000 })); // supersedes p1: forgiven
    await runUntil(r.clock, 1_100); // p2 sent after the hold, answered 429, re-queued
    r.queue.enqueue(place("p3", { urgency: 9, price: 520_000 })); // supersedes p2: counted
    await runUntil(r.clock, 3_000); // p3 accepted: the level's forgiveness starts over
    r.port.script("place", limited);
    r.queue.enqueue(place("p4", { urgency: 9, price: 530_000 }));
    await runUntil(r.clock, 3_050);
    r.queue.enqueue(place("p5", { urgency: 9, price: 540_000 })); // supersedes p4: forgiven again
    await runUntil(r.clock, 6_000);
    expect(forgone(r)).toEqual([
      ["p1", "rejected", true],
      ["p2", "rejected", false],
      ["p3", "accepted", false],
      ["p4", "rejected", true],
      ["p5", "accepted", false],
    ]);
  });

  it("is no 429's privilege: a withdrawn 503 exchange_unavailable is reported as before", async () => {
    const r = rig({ queue: { stillDesired: () => false } });
    r.port.script("place", { kind: "unavailable" });
    r.queue.enqueue(place("p1", { urgency: 9 }));
    await runUntil(r.clock, 2_000);
    expect(r.port.of("place")).toHaveLength(1);
    expect(forgone(r)).toEqual([["p1", "rejected", false]]);
  });
});
