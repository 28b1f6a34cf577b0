import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/core/clock.js";
import type { SimClock } from "../../../src/core/sim-clock.js";
import type { PlaceIntent } from "../../../src/execution/intents.js";
import { cancelAll, place, rig, runUntil, testSign } from "./order-queue.helpers.js";

// A remote signer (the Signer port is made for one) taking 10 ms per order.
const remoteSigner = (clock: SimClock) => async (i: PlaceIntent) => {
  await sleep(clock, 10);
  return testSign(i);
};

describe("order queue: a cancel-all arriving while a placement of its scope is being signed", () => {
  it("the kill switch withdraws the placement being signed instead of sending it after the cancel-all", async () => {
    const r = rig({ signer: remoteSigner, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.queue.enqueue(place("p", { market: "m1" }));
    await runUntil(r.clock, 2); // dispatched, token reserved, now being signed
    r.queue.enqueue(cancelAll(undefined)); // kill switch
    await runUntil(r.clock, 200);
    // The cancel-all left at t=2; today the placement leaves at t=10 and rests on a book the kill
    // switch has just cleared. A queued one would have been dropped (`cancel_all`), and a placement
    // dispatched after the cancel-all waits for its answer (blockedMarkets): this one does neither.
    expect(r.port.calls.map((c) => `${c.op}@${c.sentAt}`)).toEqual(["cancel_all@2"]);
    expect(r.of("place_dropped").map((d) => [d.intent.clientOrderId, d.reason])).toEqual([
      ["p", "cancel_all"],
    ]);
    expect(r.budget.available("place", 200)).toBe(50); // its token was given back
  });

  it("a market cancel-all withdraws that market's placement being signed, not another market's", async () => {
    const r = rig({ signer: remoteSigner, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.queue.enqueueAll([
      place("in-m1", { market: "m1", token: "a" }),
      place("in-m2", { market: "m2", token: "b" }),
    ]);
    await runUntil(r.clock, 2);
    r.queue.enqueue(cancelAll("m1")); // e.g. market paused
    await runUntil(r.clock, 200);
    expect(r.port.of("place").map((c) => c.clientOrderId)).toEqual(["in-m2"]);
    expect(r.of("place_dropped").map((d) => [d.intent.clientOrderId, d.reason])).toEqual([
      ["in-m1", "cancel_all"],
    ]);
  });
});
