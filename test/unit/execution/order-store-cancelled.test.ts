import { describe, expect, it } from "vitest";
import { OrderStore } from "../../../src/execution/order-store.js";

/**
 * OrderStore.cancelled: an order answered cancelled keeps its remainder (size − filled) on its side
 * until a reconcile's trade read settles it (the fills matched before the cancel are then in the
 * position); a late fill moves shares from it into the position.
 */
describe("order store: cancelled orders whose fills are not known yet", () => {
  function restingBid(store: OrderStore, id: string, size: bigint): void {
    store.track(
      {
        clientOrderId: id,
        tokenId: "t",
        marketId: "m",
        side: "buy",
        level: 0,
        priceMicro: 470_000,
        sizeMicro: size,
      },
      0,
    );
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
