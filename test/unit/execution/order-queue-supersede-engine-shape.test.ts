import { describe, expect, it } from "vitest";
import type { CancelIntent, Intent } from "../../../src/execution/intents.js";
import { OrderManager } from "../../../src/execution/order-manager.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { place, rig, runUntil } from "./order-queue.helpers.js";

/**
 * Review 16 (execution): 288d9b4 keeps a superseded placement's place in line (seq) when a new
 * placement for the same (token, side, level) arrives while it is queued. The queue only does that
 * when the new placement itself supersedes the old by key (intakePlace → places.byKey). The engine
 * never sends that shape: OrderManager.diff retires the queued placement first, as a cancel intent
 * without orderId, and only then places (cancels before placements in one batch). intakeCancel takes
 * the queued placement out (cancelled_unsent), so by the time the new placement is taken in there is
 * nothing queued for its key, and it gets a fresh seq: the back of the line, as before the fix.
 * Fix: a placement dropped unsent by a cancel hands its place in line to the next placement of its
 * key in the same batch (QueueState.intakeAll).
 */
describe("queue: a superseding placement keeps its place in line on the engine's path", () => {
  it("OrderManager.diff supersedes a queued placement as [drop cancel, place]", () => {
    const store = new OrderStore();
    const om = new OrderManager({ session: "s1", store });
    const token = { tokenId: "b", marketId: "m1", tickMicro: 10_000 };
    const q = (priceMicro: number) => [
      { side: "buy" as const, level: 0, priceMicro, sizeMicro: 10_000_000n },
    ];
    om.diff(token, q(480_000), 0);
    const second = om.diff(token, q(490_000), 1);
    // The engine's shape: the retired placement's drop first (no orderId), then the new one.
    expect(second.map((i) => i.kind)).toEqual(["cancel", "place"]);
    expect((second[0] as CancelIntent).orderId).toBeUndefined();
  });

  it("the replacement, sent as the engine sends it, takes the old one's place in line", async () => {
    const r = rig({ queue: { concurrency: 1 }, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.queue.enqueue(place("first", { token: "a" }));
    r.queue.enqueue(place("old", { token: "b", price: 480_000 }));
    r.queue.enqueue(place("other", { token: "c", price: 520_000 }));
    const drop: CancelIntent = {
      kind: "cancel",
      tokenId: "b",
      marketId: "m1",
      clientOrderId: "old",
      orderId: undefined,
      reason: "superseded",
    };
    r.queue.enqueueAll([drop, place("new", { token: "b", price: 490_000 })] as Intent[]);
    await runUntil(r.clock, 1_000);
    // As the unit test of 288d9b4 pins for a supersede by key: "new" goes where "old" stood.
    expect(r.port.of("place").map((c) => c.clientOrderId)).toEqual(["first", "new", "other"]);
  });

  it("hands the place in line on within one batch only: a level emptied and quoted again later starts afresh", async () => {
    const r = rig({ queue: { concurrency: 1 }, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    const drop: CancelIntent = {
      kind: "cancel",
      tokenId: "b",
      marketId: "m1",
      clientOrderId: "old",
      orderId: undefined,
      reason: "book_stale",
    };
    r.queue.enqueue(place("first", { token: "a" }));
    r.queue.enqueue(place("old", { token: "b", price: 480_000 }));
    r.queue.enqueue(place("other", { token: "c", price: 520_000 }));
    r.queue.enqueue(drop);
    r.queue.enqueue(place("new", { token: "b", price: 490_000 }));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("place").map((c) => c.clientOrderId)).toEqual(["first", "other", "new"]);
    expect(r.of("place_dropped").map((d) => [d.intent.clientOrderId, d.reason])).toEqual([
      ["old", "cancelled_unsent"],
    ]);
  });

  it("a token re-quoted more often than the others still gets placements out (engine-shaped batches)", async () => {
    const r = rig({ queue: { calmUrgencyTicks: 0 } });
    let n = 0;
    const queuedOf = new Map<string, string>();
    const sent = () => new Set(r.port.of("place").map((c) => c.clientOrderId));
    const requote = (token: string, coid: string, price: number, batch: Intent[]) => {
      const prev = queuedOf.get(token);
      if (prev !== undefined && !sent().has(prev)) {
        batch.push({
          kind: "cancel",
          tokenId: token,
          marketId: "m1",
          clientOrderId: prev,
          orderId: undefined,
          reason: "superseded",
        });
      }
      batch.push(place(coid, { token, urgency: 5, price }));
      queuedOf.set(token, coid);
    };
    for (let t = 0; t < 3_000; t += 20) {
      await runUntil(r.clock, t);
      const batch: Intent[] = [];
      if (t % 1_000 === 0)
        for (let k = 0; k < 100; k++) requote(`slow${k}`, `s${k}-${n++}`, 400_000 + t, batch);
      requote("fast", `f-${n++}`, 400_000 + t, batch);
      r.queue.enqueueAll(batch);
    }
    await runUntil(r.clock, 3_000);
    const sentFast = r.port.of("place").filter((c) => c.clientOrderId?.startsWith("f-")).length;
    const sentSlow = r.port.of("place").length - sentFast;
    expect(sentSlow).toBeGreaterThan(100);
    expect(sentFast).toBeGreaterThan(0);
  });
});
