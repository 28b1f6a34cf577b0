import { describe, expect, it } from "vitest";
import { localStateOfRemote } from "../../../src/execution/order-state.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { fill, order, TOKEN } from "./reconcile-support.js";

const accepted = (orderId: string, filledMicro = 0n, status: "OPEN" | "PARTIAL" | "FILLED" = "OPEN") =>
  ({ kind: "accepted", orderId, status, filledMicro }) as const;

describe("OrderStore transitions", () => {
  it("place → sent → accepted → cancel requested → cancelled", () => {
    const s = new OrderStore();
    const o = s.track(order("c1"), 10);
    expect(o).toMatchObject({ state: "placing", queued: true, sentAtMs: undefined });
    expect(s.apply("c1", { kind: "sent" }, 11)).toBe(true);
    expect(o).toMatchObject({ state: "placing", queued: false, sentAtMs: 11 });
    expect(s.apply("c1", accepted("o1"), 12)).toBe(true);
    expect(o).toMatchObject({ state: "open", orderId: "o1", updatedAtMs: 12 });
    expect(s.byOrderId("o1")).toBe(o);
    expect(s.apply("c1", { kind: "cancel_requested" }, 13)).toBe(true);
    expect(o.state).toBe("cancelling");
    expect(s.apply("c1", { kind: "cancel_confirmed" }, 14)).toBe(true);
    expect(o.state).toBe("cancelled");
    expect(s.illegalTransitions).toBe(0);
  });

  it("a sent placement answered 'retry later' is queued again (requeued), then sent again; only a sent one", () => {
    const s = new OrderStore();
    const o = s.track(order("q"), 0);
    expect(s.apply("q", { kind: "requeued" }, 1)).toBe(false); // still queued: nothing to requeue
    s.apply("q", { kind: "sent" }, 2);
    expect(s.apply("q", { kind: "requeued" }, 3)).toBe(true);
    expect(o).toMatchObject({ state: "placing", queued: true });
    // Queued again, a newer decision can drop it unsent; or it goes out once more.
    expect(s.apply("q", { kind: "sent" }, 4)).toBe(true);
    expect(o).toMatchObject({ state: "placing", queued: false, sentAtMs: 4 });
    expect(s.illegalTransitions).toBe(1);
    // Dropped while queued again, its retryable reject (reported by the queue) is no illegal step.
    s.apply("q", { kind: "requeued" }, 5);
    expect(s.apply("q", { kind: "dropped" }, 6)).toBe(true);
    expect(s.apply("q", { kind: "rejected", code: "rate_limited" }, 7)).toBe(true);
    expect(o.state).toBe("cancelled");
    expect(s.illegalTransitions).toBe(1);
  });

  it("accepted FILLED or PARTIAL carries the filled quantity", () => {
    const s = new OrderStore();
    s.track(order("a"), 0);
    s.track(order("b"), 0);
    s.apply("a", accepted("oa", 10_000_000n, "FILLED"), 1);
    s.apply("b", accepted("ob", 4_000_000n, "PARTIAL"), 1);
    expect(s.get("a")).toMatchObject({ state: "filled", filledMicro: 10_000_000n });
    expect(s.get("b")).toMatchObject({ state: "open", filledMicro: 4_000_000n });
  });

  it("rejected and ambiguous answers; an unknown order accepts no send answer", () => {
    const s = new OrderStore();
    s.track(order("r"), 0);
    s.track(order("u"), 0);
    s.apply("r", { kind: "rejected", code: "insufficient_funds" }, 1);
    s.apply("u", { kind: "ambiguous" }, 1);
    expect(s.get("r")).toMatchObject({ state: "rejected", lastCode: "insufficient_funds" });
    expect(s.get("u")?.state).toBe("unknown");
    expect(s.apply("u", accepted("late"), 2)).toBe(false);
    expect(s.apply("u", { kind: "cancel_requested" }, 2)).toBe(false);
    expect(s.get("u")).toMatchObject({ state: "unknown", orderId: undefined });
    expect(s.illegalTransitions).toBe(2);
  });

  it("illegal transitions are ignored and counted, never thrown", () => {
    const s = new OrderStore();
    s.track(order("c"), 0);
    expect(s.apply("c", { kind: "cancel_confirmed" }, 1)).toBe(false); // placing cannot be cancel-confirmed
    expect(s.apply("missing", { kind: "sent" }, 1)).toBe(false);
    s.apply("c", { kind: "sent" }, 1);
    expect(s.apply("c", { kind: "sent" }, 2)).toBe(false); // sent twice
    expect(s.apply("c", { kind: "dropped" }, 2)).toBe(false); // already left the queue
    s.apply("c", accepted("o"), 3);
    expect(s.apply("c", accepted("other"), 4)).toBe(false); // conflicting id
    expect(s.get("c")).toMatchObject({ state: "open", orderId: "o" });
    expect(s.illegalTransitions).toBe(5);
    s.track(order("c"), 5); // the same clientOrderId twice
    expect(s.illegalTransitions).toBe(6);
  });

  it("a failed cancel: retryable → open again; not_cancellable → stays cancelling, flagged", () => {
    const s = new OrderStore();
    for (const c of ["x", "y"]) {
      s.track(order(c), 0);
      s.apply(c, accepted(`o-${c}`), 1);
      s.apply(c, { kind: "cancel_requested" }, 2);
    }
    s.apply("x", { kind: "cancel_failed", code: "rate_limited", retryable: true }, 3);
    s.apply("y", { kind: "cancel_failed", code: "not_cancellable", retryable: false }, 3);
    expect(s.get("x")).toMatchObject({ state: "open", needsReconcile: false, cancelDoubted: false });
    expect(s.get("y")).toMatchObject({
      state: "cancelling",
      needsReconcile: true,
      cancelDoubted: true,
      lastCode: "not_cancellable",
    });
    // The reconciler finds it still open: settled, but its cancel stays doubted.
    s.reconcile({ clientOrderId: "y", state: "open", reason: "still open" }, 4);
    expect(s.get("y")).toMatchObject({ state: "open", needsReconcile: false, cancelDoubted: true });
  });

  it("a cancel still unanswered that a reconcile finds resting makes the order doubted", () => {
    // Past the reconciler's grace (5 s, below the 10 s request timeout) it reverts the order to
    // open before the cancel's late answer: that answer then finds it open and marks nothing.
    const s = new OrderStore();
    s.track(order("z"), 0);
    s.apply("z", accepted("o-z"), 1);
    s.apply("z", { kind: "cancel_requested" }, 2);
    s.reconcile({ clientOrderId: "z", state: "open", reason: "still open" }, 6_000);
    expect(s.get("z")).toMatchObject({ state: "open", cancelDoubted: true });
    // A plain open order the reconciler confirms is not.
    s.track(order("w"), 0);
    s.apply("w", accepted("o-w"), 1);
    s.reconcile({ clientOrderId: "w", state: "open", reason: "still open" }, 6_000);
    expect(s.get("w")).toMatchObject({ cancelDoubted: false });
  });

  it("a dropped queued placement is cancelled; if it was sent after all its answer still counts", () => {
    const s = new OrderStore();
    s.track(order("d"), 0);
    s.apply("d", { kind: "dropped" }, 1);
    expect(s.get("d")?.state).toBe("cancelled");
    expect(s.live(TOKEN)).toEqual([]);
    s.apply("d", accepted("od"), 2);
    expect(s.get("d")).toMatchObject({ state: "open", orderId: "od" });
  });
});

describe("OrderStore fills", () => {
  it("fills accumulate by distinct tradeId and complete the order", () => {
    const s = new OrderStore();
    s.track(order("c"), 0);
    s.apply("c", accepted("o"), 1);
    s.recordFill(fill({ tradeId: "t1", orderId: "o", sizeMicro: 4_000_000n }));
    s.recordFill(fill({ tradeId: "t1", orderId: "o", sizeMicro: 4_000_000n }));
    expect(s.get("c")).toMatchObject({ state: "open", filledMicro: 4_000_000n });
    s.recordFill(fill({ tradeId: "t2", orderId: "o", sizeMicro: 6_000_000n }));
    expect(s.get("c")).toMatchObject({ state: "filled", filledMicro: 10_000_000n });
  });

  it("a fill before the placement's answer binds the id by clientOrderId; the answer then agrees", () => {
    const s = new OrderStore();
    s.track(order("c"), 0);
    s.apply("c", { kind: "sent" }, 1);
    s.recordFill(fill({ tradeId: "t1", orderId: "o", clientOrderId: "c", sizeMicro: 10_000_000n }));
    expect(s.get("c")).toMatchObject({ state: "filled", orderId: "o" });
    expect(s.apply("c", accepted("o", 10_000_000n, "FILLED"), 2)).toBe(true);
    expect(s.apply("c", { kind: "ambiguous" }, 2)).toBe(true);
    expect(s.illegalTransitions).toBe(0);
  });

  it("fills of an id not yet bound count once the id is bound", () => {
    const s = new OrderStore();
    s.track(order("c"), 0);
    s.apply("c", { kind: "ambiguous" }, 1);
    expect(s.recordFill(fill({ tradeId: "t1", orderId: "o", sizeMicro: 3_000_000n }))).toBeUndefined();
    s.reconcile({ clientOrderId: "c", orderId: "o", state: "open", reason: "found_open" }, 2);
    expect(s.get("c")).toMatchObject({ state: "open", filledMicro: 3_000_000n, fillSumMicro: 3_000_000n });
  });

  it("filledMicro is the larger of the fill sum and the exchange's filledQty, and never falls", () => {
    const s = new OrderStore();
    s.track(order("c"), 0);
    s.apply("c", accepted("o"), 1);
    s.reconcile({ clientOrderId: "c", state: "open", remoteFilledMicro: 5_000_000n, reason: "x" }, 2);
    s.recordFill(fill({ tradeId: "t1", orderId: "o", sizeMicro: 2_000_000n }));
    expect(s.get("c")?.filledMicro).toBe(5_000_000n);
    s.reconcile({ clientOrderId: "c", state: "open", remoteFilledMicro: 1_000_000n, reason: "x" }, 3);
    expect(s.get("c")?.filledMicro).toBe(5_000_000n);
  });
});

describe("OrderStore reconcile and housekeeping", () => {
  it("a terminal state is final; only its filled quantity may rise", () => {
    const s = new OrderStore();
    s.track(order("c"), 0);
    s.apply("c", { kind: "rejected", code: "market_not_open" }, 1);
    s.reconcile({ clientOrderId: "c", state: "open", reason: "x" }, 2);
    expect(s.get("c")?.state).toBe("rejected");
    expect(s.reconcile({ clientOrderId: "zz", state: "open", reason: "x" }, 2)).toBe(false);
  });

  it("adopt tracks an exchange order as open; refuses a known id", () => {
    const s = new OrderStore();
    const a = s.adopt({ ...order("ext"), orderId: "o9", filledMicro: 1_000_000n }, 5);
    expect(a).toMatchObject({ state: "open", orderId: "o9", filledMicro: 1_000_000n, queued: false });
    expect(s.adopt({ ...order("ext2"), orderId: "o9", filledMicro: 0n }, 5)).toBeUndefined();
  });

  it("prune forgets old terminal orders only", () => {
    const s = new OrderStore();
    s.track(order("old"), 0);
    s.apply("old", { kind: "rejected", code: "x" }, 1);
    s.track(order("live"), 0);
    expect(s.prune(100)).toBe(1);
    expect(s.get("old")).toBeUndefined();
    expect(s.get("live")).toBeDefined();
  });

  it("maps exchange statuses to local states", () => {
    expect(
      ["PENDING", "OPEN", "PARTIAL", "FILLED", "CANCELLED", "EXPIRED", "REJECTED", "SETTLEMENT_FAILED"].map(
        localStateOfRemote,
      ),
    ).toEqual(["open", "open", "open", "filled", "cancelled", "expired", "rejected", "cancelled"]);
  });
});
