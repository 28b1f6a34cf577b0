import { describe, expect, it } from "vitest";
import type { CancelOutcome } from "../../../src/execution/order-queue-types.js";
import { cancel, cancelAll, place, rig, runUntil } from "./order-queue.helpers.js";

/*
 * An ambiguous answer (a timeout, 500, 502, 504) to a cancel or a cancel-all counts towards the
 * error-rate halt (engine-reports.ts), once per request sent, as a failed one does: `requestError`
 * marks the one report that counts it. The ambiguous outcome carried no such mark, so the engine
 * could count none of them (a storm of 500s on every cancel-all never tripped the halt) or, counting
 * every ambiguous report, one per duplicate and per cancel a cancel-all covered.
 */

/** One slot, so the first item stays in flight while the next ones queue up behind it. */
const oneSlot = () =>
  rig({ queue: { concurrency: 1, cancelSlots: 0 }, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });

const counted = (outcomes: readonly CancelOutcome[]) =>
  outcomes.map((o) => (o.kind === "failed" || o.kind === "ambiguous") && o.requestError);

describe("order queue: ambiguous requests, one error each", () => {
  it("an ambiguous cancel that carried a duplicate is one request error", async () => {
    const r = oneSlot();
    r.port.script("cancel", { kind: "ambiguous" });
    r.queue.enqueue(cancelAll("m9")); // in flight while the cancels queue up
    r.queue.enqueueAll([cancel("c1", "o-1", "m1"), cancel("c1", "o-1", "m1")]);
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")).toHaveLength(1);
    const outcomes = r.of("cancel").map((c) => c.outcome);
    expect(outcomes.map((o) => o.kind)).toEqual(["ambiguous", "ambiguous"]);
    expect(counted(outcomes)).toEqual([true, false]);
  });

  it("an ambiguous wallet cancel-all counts once: not for the cancel-alls it absorbed, nor the cancels it covered", async () => {
    const r = oneSlot();
    r.port.script("cancel_all", { kind: "ambiguous" });
    r.queue.enqueue(cancel("c9", "o-9")); // in flight while the rest queue up
    r.queue.enqueueAll([cancel("c1", "o-1", "m1"), cancel("c2", "o-2", "m2")]);
    r.queue.enqueueAll([cancelAll("m1"), cancelAll("m2")]);
    r.queue.enqueue(cancelAll(undefined)); // the kill switch absorbs both, and the cancels they covered
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel_all")).toHaveLength(1);
    const alls = r.of("cancel_all").map((c) => c.outcome);
    expect(alls.map((o) => o.kind)).toEqual(["ambiguous", "ambiguous", "ambiguous"]);
    expect(alls.map((o) => o.kind === "ambiguous" && o.requestError)).toEqual([true, false, false]);
    const covered = r.of("cancel").filter((c) => c.intent.clientOrderId !== "c9");
    expect(covered.map((c) => c.outcome.kind)).toEqual(["ambiguous", "ambiguous"]);
    expect(counted(covered.map((c) => c.outcome))).toEqual([false, false]);
  });

  it("a substituted cancel-all answered ambiguously counts once, on its first covered cancel", async () => {
    const ids = ["c0", "c1", "c2", "c3", "c4", "c5"];
    const r = rig({ queue: { restingOrders: (m) => (m === "m1" ? ids : []) } });
    r.port.script("cancel_all", { kind: "ambiguous" });
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel_all")).toHaveLength(1);
    expect(r.port.of("cancel")).toHaveLength(0);
    const outcomes = r.of("cancel").map((c) => c.outcome);
    expect(outcomes.map((o) => o.kind)).toEqual(Array(6).fill("ambiguous"));
    expect(counted(outcomes)).toEqual([true, false, false, false, false, false]);
    expect(r.of("substitution_failed")).toEqual([]);
  });

  it("the cancels of a placement answered ambiguously are no request of their own", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.port.script("place", { kind: "ambiguous" });
    r.queue.enqueue(place("p1"));
    await runUntil(r.clock, 2); // sent, not answered
    r.queue.enqueueAll([cancel("p1", undefined), cancel("p1", undefined)]);
    await runUntil(r.clock, 1_000);
    expect(r.of("place").map((p) => p.outcome.kind)).toEqual(["ambiguous"]);
    expect(r.port.of("cancel")).toHaveLength(0);
    const outcomes = r.of("cancel").map((c) => c.outcome);
    expect(outcomes.map((o) => o.kind)).toEqual(["ambiguous", "ambiguous"]);
    expect(counted(outcomes)).toEqual([false, false]);
  });
});
