import { describe, expect, it } from "vitest";
import type { TrackedOrder } from "../../../src/execution/order-state.js";
import { OrderStore } from "../../../src/execution/order-store.js";
import { CancelledIndex } from "../../../src/execution/order-store-cancelled.js";
import { mulberry32 } from "../../support/mulberry32.js";

/**
 * OrderStore.cancelled: an order answered cancelled keeps its remainder (size − filled) on its side
 * until a reconcile's trade read settles it (the fills matched before the cancel are then in the
 * position); a late fill moves shares from it into the position.
 */
describe("order store: cancelled orders whose fills are not known yet", () => {
  const NEW = {
    clientOrderId: "",
    tokenId: "t",
    marketId: "m",
    side: "buy",
    level: 0,
    priceMicro: 470_000,
    sizeMicro: 10n,
  } as const;

  function restingBid(store: OrderStore, id: string, size: bigint): void {
    store.track({ ...NEW, clientOrderId: id, sizeMicro: size }, 0);
    store.apply(id, { kind: "sent" }, 1);
    store.apply(id, { kind: "accepted", orderId: `o-${id}`, status: "OPEN", filledMicro: 0n }, 2);
    store.apply(id, { kind: "cancel_requested" }, 3);
  }

  it("counts the remainder from the cancel's answer until settled up to its mark", () => {
    const store = new OrderStore();
    restingBid(store, "a", 10n);
    expect(store.cancelled.sides("t")).toBeUndefined(); // live: the remainders count it
    store.apply("a", { kind: "cancel_confirmed" }, 4);
    expect(store.live("t")).toEqual([]);
    expect(store.cancelled.sides("t")).toEqual({ buy: 10n, sell: 0n });

    const mark = store.cancelled.mark();
    restingBid(store, "b", 5n);
    store.apply("b", { kind: "cancel_confirmed" }, 5); // after the mark: a later read settles it
    const version = store.version("t");
    expect(store.cancelled.settle(mark)).toEqual(["t"]);
    expect(store.version("t")).toBeGreaterThan(version);
    expect(store.cancelled.sides("t")).toEqual({ buy: 5n, sell: 0n });
    expect(store.cancelled.settle(store.cancelled.mark())).toEqual(["t"]);
    expect(store.cancelled.sides("t")).toBeUndefined();
  });

  it("asks for one reconcile per settling run; a settle names the tokens still counting", () => {
    const store = new OrderStore();
    restingBid(store, "a", 10n);
    store.apply("a", { kind: "cancel_confirmed" }, 4);
    expect(store.cancelled.askReconcile()).toBe(true);
    // Steps until a run settles (one failing, or reading short, settles nothing) ask no more.
    expect(store.cancelled.askReconcile()).toBe(false);
    const mark = store.cancelled.mark();
    restingBid(store, "b", 5n);
    store.apply("b", { kind: "cancel_confirmed" }, 5);
    expect(store.cancelled.askReconcile()).toBe(false); // spent while that run was under way
    store.track({ ...NEW, clientOrderId: "c", tokenId: "u" }, 5);
    store.apply("c", { kind: "sent" }, 5);
    store.apply("c", { kind: "accepted", orderId: "o-c", status: "OPEN", filledMicro: 0n }, 5);
    store.apply("c", { kind: "cancel_requested" }, 5);
    store.apply("c", { kind: "cancel_confirmed" }, 6);
    // t moved (a settled), u did not but still counts c: both stepped again, so u's step can ask.
    expect(store.cancelled.settle(mark)).toEqual(["t", "u"]);
    expect(store.cancelled.askReconcile()).toBe(true);
  });

  it("a fill arriving after the answer moves its shares out of the remainder", () => {
    const store = new OrderStore();
    restingBid(store, "a", 10n);
    store.apply("a", { kind: "cancel_confirmed" }, 4);
    store.recordFill({
      tradeId: "x1",
      orderId: "o-a",
      clientOrderId: "a",
      tokenId: "t",
      side: "buy",
      priceMicro: 470_000,
      sizeMicro: 6n,
      tsMs: 3,
    });
    expect(store.cancelled.sides("t")).toEqual({ buy: 4n, sell: 0n });
    // Settled, nothing moves any more: a token whose remainders were all filled is not reported.
    store.recordFill({
      tradeId: "x2",
      orderId: "o-a",
      clientOrderId: "a",
      tokenId: "t",
      side: "buy",
      priceMicro: 470_000,
      sizeMicro: 4n,
      tsMs: 3,
    });
    expect(store.cancelled.sides("t")).toBeUndefined();
    expect(store.cancelled.settle(store.cancelled.mark())).toEqual([]);
  });
});

describe("CancelledIndex: the running sums per side", () => {
  /** A plain recount of what the index should report, from the orders it holds. */
  function recount(
    orders: Map<TrackedOrder, boolean>,
    tokenId: string,
  ): { buy: bigint; sell: bigint } | undefined {
    let buy = 0n;
    let sell = 0n;
    for (const [o, held] of orders) {
      if (!held || o.tokenId !== tokenId || o.state !== "cancelled") continue;
      const r = o.sizeMicro - o.filledMicro > 0n ? o.sizeMicro - o.filledMicro : 0n;
      if (o.side === "buy") buy += r;
      else sell += r;
    }
    return buy === 0n && sell === 0n ? undefined : { buy, sell };
  }

  it("equal a recount after any mix of confirmations, fills, prunes and settles", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = mulberry32(seed);
      const index = new CancelledIndex(() => {});
      const held = new Map<TrackedOrder, boolean>();
      const marks = new Map<TrackedOrder, number>();
      const orders: TrackedOrder[] = [];
      for (let step = 0; step < 200; step++) {
        const r = rnd();
        if (r < 0.35 || orders.length === 0) {
          const o = {
            tokenId: rnd() < 0.5 ? "t1" : "t2",
            side: rnd() < 0.5 ? "buy" : "sell",
            state: "cancelled",
            sizeMicro: BigInt(1 + Math.floor(rnd() * 100)),
            filledMicro: 0n,
          } as unknown as TrackedOrder;
          orders.push(o);
          index.confirmed(o);
          held.set(o, true);
          marks.set(o, index.mark());
        } else {
          const o = orders[Math.floor(rnd() * orders.length)] as TrackedOrder;
          if (r < 0.6) {
            (o as { filledMicro: bigint }).filledMicro += BigInt(Math.floor(rnd() * 30));
            index.update(o);
          } else if (r < 0.7) {
            index.confirmed(o); // a repeated confirmation is counted once
            held.set(o, true);
            marks.set(o, index.mark());
          } else if (r < 0.85) {
            index.forget(o);
            held.set(o, false);
          } else {
            const mark = Math.floor(rnd() * (index.mark() + 1));
            index.settle(mark);
            for (const [x, m] of marks) if (m <= mark) held.set(x, false);
          }
        }
        for (const t of ["t1", "t2"])
          expect(index.sides(t), `seed ${seed} step ${step}`).toEqual(recount(held, t));
      }
    }
  });
});
