import { describe, expect, it } from "vitest";
import { preferCancelAll } from "../../../src/execution/order-queue-cancel-all.js";
import { cancel, place, rig, runUntil } from "./order-queue.helpers.js";

const coids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("cancel-all substitution", () => {
  const base = {
    pendingCancels: 5,
    allCovered: true,
    placementsInFlight: 0,
    cancelTokensNow: 20,
    cancelAllTokensNow: 5,
    cancelPerSecond: 20,
    cancelAllPerSecond: 5,
    cancelAllAvailable: true,
  };

  it("rule: cheaper from 5 cancels at 20/s vs 5/s, or when singles would wait; never when unsafe", () => {
    expect(preferCancelAll(base)).toBe(true);
    expect(preferCancelAll({ ...base, pendingCancels: 4 })).toBe(false);
    expect(preferCancelAll({ ...base, pendingCancels: 4, cancelTokensNow: 3 })).toBe(true);
    expect(preferCancelAll({ ...base, pendingCancels: 1, cancelTokensNow: 0 })).toBe(false);
    expect(preferCancelAll({ ...base, allCovered: false })).toBe(false);
    expect(preferCancelAll({ ...base, placementsInFlight: 1 })).toBe(false);
    expect(preferCancelAll({ ...base, cancelAllTokensNow: 0 })).toBe(false);
    expect(preferCancelAll({ ...base, cancelAllAvailable: false })).toBe(false);
  });

  it("replaces a market's cancels by one cancel-all when every resting order there is being cancelled", async () => {
    const ids = coids("c", 6);
    const r = rig({ queue: { restingOrders: (m) => (m === "m1" ? ids : []) } });
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
    await runUntil(r.clock, 1_000);
    expect(r.port.calls.map((c) => [c.op, c.marketId])).toEqual([["cancel_all", "m1"]]);
    expect(r.of("cancel").map((c) => c.outcome.kind)).toEqual(Array(6).fill("covered"));
    expect(r.queue.stats.substitutions).toBe(1);
  });

  it("keeps single cancels when an order of that market must stay", async () => {
    const ids = coids("c", 6);
    const r = rig({ queue: { restingOrders: () => [...ids, "keep-me"] } });
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")).toHaveLength(6);
    expect(r.port.of("cancel_all")).toHaveLength(0);
  });

  it("keeps a few single cancels while the cancel bucket can send them now", async () => {
    const ids = coids("c", 3);
    const r = rig({ queue: { restingOrders: () => ids } });
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")).toHaveLength(3);
  });

  it("uses cancel-all for a few cancels once the cancel bucket is nearly spent", async () => {
    const busy = coids("b", 19);
    const ids = coids("c", 3);
    const r = rig({ queue: { restingOrders: (m) => (m === "m1" ? ids : [...busy, "other"]) } });
    r.queue.enqueueAll(busy.map((id, i) => cancel(id, `o-b${i}`, "m2")));
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`, "m1")));
    await runUntil(r.clock, 100);
    expect(r.port.of("cancel")).toHaveLength(19);
    expect(r.port.of("cancel_all").map((c) => c.marketId)).toEqual(["m1"]);
  });

  it("does not substitute while a placement of that market is in flight", async () => {
    const ids = coids("c", 6);
    const r = rig({
      queue: { restingOrders: () => ids },
      port: { latency: () => ({ inMs: 10, outMs: 10 }) },
    });
    r.queue.enqueue(place("landing", { market: "m1" }));
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel_all")).toHaveLength(0);
    expect(r.port.of("cancel")).toHaveLength(6);
  });
});

describe("shedding under a tight budget", () => {
  it("sheds calm requotes beyond what the budget can send within the horizon, never urgent ones", async () => {
    const r = rig({ budget: { rateLimitPerMin: 60 } }); // place 5/s
    const urgent = Array.from({ length: 8 }, (_, i) => place(`u${i}`, { token: `u${i}`, urgency: 9 }));
    const calm = Array.from({ length: 6 }, (_, i) => place(`c${i}`, { token: `c${i}`, urgency: 1 }));
    r.queue.enqueueAll([...calm, ...urgent]);
    expect(r.of("place_dropped").map((d) => d.reason)).toEqual(Array(6).fill("shed"));
    expect(r.queue.stats.shed).toBe(6);
    await runUntil(r.clock, 3_000);
    const sent = r.port.of("place");
    expect(sent.map((c) => c.clientOrderId)).toEqual(urgent.map((u) => u.clientOrderId));
    expect(sent.filter((c) => c.sentAt === 0)).toHaveLength(5);
    expect(sent[5]?.sentAt).toBe(1_050); // the first token back: window 1000 + margin 50
  });

  it("sends calm requotes when the budget has room for them", async () => {
    const r = rig();
    r.queue.enqueueAll(Array.from({ length: 20 }, (_, i) => place(`c${i}`, { token: `c${i}`, urgency: 0 })));
    await runUntil(r.clock, 100);
    expect(r.port.of("place")).toHaveLength(20);
    expect(r.queue.stats.shed).toBe(0);
  });
});

describe("keeping in step with the server", () => {
  it("honours Retry-After: nothing of that op leaves before it ends", async () => {
    const waits: (number | undefined)[] = [];
    const r = rig({
      port: { latency: () => ({ inMs: 5, outMs: 5 }) },
      queue: { stillDesired: () => true, metrics: { rateLimited: (_op, ms) => waits.push(ms) } },
    });
    r.port.script("place", { kind: "limited", retryAfterMs: 2_000 });
    r.queue.enqueue(place("p1", { token: "a" }));
    await runUntil(r.clock, 10);
    r.queue.enqueueAll([place("p2", { token: "b" }), place("p3", { token: "c" })]);
    r.queue.enqueue(cancel("c1", "o-1")); // another bucket: not held back
    await runUntil(r.clock, 5_000);
    const places = r.port.of("place");
    // Then one at a time, not all at once: a 2 s hold is longer than the wallet's 50/s bucket takes
    // to refill, so it restarts from one token and paces at its rate (one per 21 ms: 1050 ms / 50)
    // until it is whole; the IP's bucket lost only the 2 s it held (33 of its 167).
    expect(places.map((c) => [c.clientOrderId, c.sentAt])).toEqual([
      ["p1", 0],
      ["p1", 2_010],
      ["p2", 2_031],
      ["p3", 2_052],
    ]);
    expect(r.port.of("cancel")[0]?.sentAt).toBe(10);
    expect(r.queue.stats.rateLimited).toBe(1);
    expect(waits).toEqual([2_000]);
  });

  it("lowers the budget from X-RateLimit-Remaining when someone else spends the wallet's window", async () => {
    const charged: number[] = [];
    const r = rig({ queue: { metrics: { foreignUse: (_op, n) => charged.push(n) } } });
    r.port.foreignUse("place", 40); // another process: 40 of this second's 50
    r.queue.enqueue(place("probe", { token: "probe" }));
    await runUntil(r.clock, 1);
    expect(charged).toEqual([40]);
    expect(r.budget.available("place", r.clock.now())).toBe(9);
    const snap = r.budget.snapshot(r.clock.now()).find((b) => b.op === "place" && b.scope === "wallet");
    expect(snap?.remaining).toBe(9);
    r.queue.enqueueAll(Array.from({ length: 20 }, (_, i) => place(`p${i}`, { token: `t${i}`, urgency: 9 })));
    await runUntil(r.clock, 3_000);
    expect(r.port.of("place").filter((c) => c.arrivedAt < 1_000)).toHaveLength(10);
    expect(r.port.calls.filter((c) => c.limited)).toHaveLength(0);
  });

  it("without header sync the same situation draws 429s (the sync is what prevents them)", async () => {
    const r = rig({ queue: { rateLimitState: () => undefined } });
    r.port.foreignUse("place", 40);
    r.queue.enqueue(place("probe", { token: "probe" }));
    r.queue.enqueueAll(Array.from({ length: 20 }, (_, i) => place(`p${i}`, { token: `t${i}`, urgency: 9 })));
    await runUntil(r.clock, 3_000);
    expect(r.port.calls.filter((c) => c.limited).length).toBeGreaterThan(0);
  });
});
