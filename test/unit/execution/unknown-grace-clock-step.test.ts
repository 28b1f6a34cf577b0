import { describe, expect, it } from "vitest";
import type { Order, TradeRecord } from "../../../src/exchange/types.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { type ReconcileSource, runReconcile } from "../../../src/execution/reconcile-run.js";
import { SetClock } from "../../support/set-clock.js";
import { order, remote, TOKEN } from "./reconcile-support.js";

const T0 = 1_750_000_000_000;
const GRACE = 30_000;
const MINUTE = 60_000;

/** An exchange whose reads do not show the order yet (open list, history): it lags its matcher. */
const lagging: ReconcileSource = {
  openOrders: async (): Promise<Order[]> => [],
  order: async (): Promise<Order> => {
    throw new Error("no order is looked up by id here");
  },
  ordersByClientId: async () => ({ orders: [], complete: true }),
  trades: async (): Promise<{ trades: TradeRecord[]; nextCursor: string | null }> => ({
    trades: [],
    nextCursor: null,
  }),
};

/** An exchange listing these orders open (and nothing else anywhere). */
const listing = (open: Order[]): ReconcileSource => ({ ...lagging, openOrders: async () => open });

/**
 * The wall clock (`wall`, what `now` arguments carry) steps by `stepMs` while only `elapsed` passes
 * on the monotonic clock the store stamps its orders with (LiveClock: performance.now()).
 */
function stepped(stepMs: number) {
  const wall = new SetClock(T0);
  let mono = 5_000;
  const store = new OrderStore({ monotonic: () => mono });
  const pass = (ms: number) => {
    wall.t += ms;
    mono += ms;
  };
  const step = () => {
    wall.t += stepMs;
  };
  return { wall, store, pass, step };
}

describe.each([
  ["forward", 10 * MINUTE],
  ["back", -10 * MINUTE],
])("the unknown-order grace across a 10-min wall-clock step %s", (_name, stepMs) => {
  it("an ambiguous placement the reads do not list yet stays unknown for the grace in elapsed time", async () => {
    const { wall, store, pass, step } = stepped(stepMs);
    store.track(order("amb"), wall.now());
    store.apply("amb", { kind: "sent" }, wall.now());
    pass(50);
    store.apply("amb", { kind: "ambiguous" }, wall.now());
    pass(250);
    step();
    const state = { orders: store, inventory: new Inventory() };
    const opts = { tokenOf: () => TOKEN, unknownGraceMs: GRACE };
    const first = await runReconcile(lagging, state, wall.now(), opts);
    expect(first.pending).toBe(1);
    expect(store.get("amb")?.state).toBe("unknown");
    pass(GRACE - 400);
    expect((await runReconcile(lagging, state, wall.now(), opts)).pending).toBe(1);
    pass(200); // 30 s since it was sent
    const last = await runReconcile(lagging, state, wall.now(), opts);
    expect(last.pending).toBe(0);
    expect(last.updates).toEqual([{ clientOrderId: "amb", state: "rejected", reason: "never_placed" }]);
  });

  it("a placement dropped while its request was on the wire is not pruned before its late answer", () => {
    const { wall, store, pass, step } = stepped(stepMs);
    store.track(order("late"), wall.now());
    store.apply("late", { kind: "dropped" }, wall.now()); // retired while queued; the queue had taken it
    store.track(order("gone"), wall.now());
    store.apply("gone", { kind: "dropped" }, wall.now());
    pass(1_000);
    step();
    const prune = () => store.prune(wall.now() - 10 * MINUTE, wall.now() - GRACE, wall.now());
    expect(prune()).toBe(0);
    const answer = { kind: "accepted", orderId: "o1", status: "OPEN", filledMicro: 0n } as const;
    expect(store.apply("late", answer, wall.now())).toBe(true); // it landed after all: tracked again
    expect(store.get("late")?.state).toBe("open");
    pass(GRACE - 1_000);
    expect(prune()).toBe(0);
    pass(1);
    expect(prune()).toBe(1); // "gone", more than a grace after it last changed
    expect(store.get("gone")).toBeUndefined();
  });
});

describe.each([
  ["forward", 10 * MINUTE],
  ["back", -10 * MINUTE],
])("the in-flight cancel's grace across a 10-min wall-clock step %s", (_name, stepMs) => {
  it("a cancel whose answer is on its way is left to it for 5 s of elapsed time, then looked into", async () => {
    const { wall, store, pass, step } = stepped(stepMs);
    store.track(order("c"), wall.now());
    store.apply("c", { kind: "sent" }, wall.now());
    store.apply("c", { kind: "accepted", orderId: "o1", status: "OPEN", filledMicro: 0n }, wall.now());
    pass(1_000);
    store.apply("c", { kind: "cancel_requested" }, wall.now()); // its answer never comes
    pass(1_000);
    step();
    const state = { orders: store, inventory: new Inventory() };
    const src = listing([remote({ id: "o1", clientOrderId: "c" })]);
    const opts = { tokenOf: () => TOKEN, unknownGraceMs: GRACE };
    expect((await runReconcile(src, state, wall.now(), opts)).updates).toEqual([]);
    expect(store.get("c")?.state).toBe("cancelling");
    pass(4_000); // 5 s since the cancel: still open on the exchange, so open again (cancelled anew)
    const later = await runReconcile(src, state, wall.now(), opts);
    expect(later.updates).toMatchObject([{ clientOrderId: "c", state: "open" }]);
  });
});

describe("an order store without a monotonic clock (backtests: SimClock never steps)", () => {
  it("measures the grace on the `now` it is given, as before", async () => {
    const store = new OrderStore();
    store.track(order("amb"), 0);
    store.apply("amb", { kind: "sent" }, 0);
    store.apply("amb", { kind: "ambiguous" }, 10);
    const state = { orders: store, inventory: new Inventory() };
    const opts = { tokenOf: () => TOKEN, unknownGraceMs: GRACE };
    expect((await runReconcile(lagging, state, GRACE - 1, opts)).pending).toBe(1);
    expect((await runReconcile(lagging, state, GRACE, opts)).pending).toBe(0);
    // Rejected (never placed) at GRACE: forgotten a grace after that.
    expect(store.prune(0, GRACE, 2 * GRACE)).toBe(0);
    expect(store.prune(0, GRACE + 1, 2 * GRACE + 1)).toBe(1);
  });
});
