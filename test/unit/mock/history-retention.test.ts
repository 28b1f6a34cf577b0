import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { FEE_PENDING_WINDOW_MS } from "../../../src/journal/restore.js";
import { MOCK_HISTORY_MS } from "../../../src/mock/build-context.js";
import { MM_WALLET, simContext } from "./sim-support.js";

describe("mock history retention", () => {
  it("forgets closed orders once MOCK_HISTORY_MS has passed (swept four times per period), keeping open ones", () => {
    const { ctx, clock } = simContext();
    const m = ctx.scenario.markets[0];
    if (m === undefined) throw new Error("the default scenario has markets");
    const place = (price: string) =>
      ctx.venue.place({
        wallet: MM_WALLET,
        marketId: m.id,
        outcome: "YES",
        side: "buy",
        price: toWei(price),
        quantity: toWei("1"),
      }).orderId;
    const closed = place("0.05");
    const open = place("0.04");
    ctx.venue.cancel(MM_WALLET, closed);
    clock.advanceBy(MOCK_HISTORY_MS - 1_000);
    ctx.venue.openOrders(MM_WALLET);
    expect(ctx.venue.order(MM_WALLET, closed)?.status).toBe("CANCELLED");
    clock.advanceBy(MOCK_HISTORY_MS / 4);
    ctx.venue.openOrders(MM_WALLET); // any call may sweep
    expect(ctx.venue.order(MM_WALLET, closed)).toBeUndefined();
    expect(ctx.venue.order(MM_WALLET, open)?.status).toBe("OPEN");
  });

  it("outlasts what mm reads back after a restart: the fee window of a day, and an hour of downtime", () => {
    expect(MOCK_HISTORY_MS).toBeGreaterThanOrEqual(FEE_PENDING_WINDOW_MS + 3_600_000);
  });
});
