import { describe, expect, it } from "vitest";
import { LatencyLane, latencyLane } from "../../../src/backtest/sim/latency.js";
import { Pump } from "../../../src/backtest/sim/pump.js";
import { VenueExchange } from "../../../src/backtest/sim/venue-exchange.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Address } from "../../../src/core/types.js";
import { OrderQueue } from "../../../src/execution/order-queue.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import type { SimVenue } from "../../../src/venue/sim-venue.js";
import { uniformSeq } from "./support/uniform-seq.js";

/** Only what VenueExchange.cancel touches: records the order in which cancels reach the venue. */
function fakeVenue(reached: string[]): SimVenue {
  return {
    cancel: (_wallet: Address, orderId: string) => {
      reached.push(orderId);
      return { ok: true, order: { id: orderId, status: "CANCELLED" } };
    },
    openOrders: () => {
      reached.push("openOrders");
      return [];
    },
  } as unknown as SimVenue;
}

/**
 * README (config/backtest "Latency"): "Order entry is one ordered lane …: a request never reaches
 * the venue before one sent earlier." LatencyLane gives the second request a delay of 0 when its
 * draw is 0 and the first one arrives exactly now; VenueExchange#hop resolved it at once while the
 * first still waited for its SimClock timer of the same deadline, so a request sent synchronously
 * from a timer that fires before that one — the order queue's rate-budget wake timer calls #pump →
 * exchange.cancel synchronously — reached the venue first. A sampled lane now queues it (Delay.queues).
 */
describe("latency: the order-entry lane keeps send order at equal arrival times", () => {
  it("a request sent at the earlier one's arrival ms with a 0 ms draw does not overtake it", async () => {
    const clock = new SimClock(0);
    const pump = new Pump(clock);
    const reached: string[] = [];
    // Draws: 5 ms for the first request, 0 ms for the second.
    const entry = new LatencyLane({ type: "empirical", samplesMs: [0, 5] }, uniformSeq(0.9, 0));
    const ex = new VenueExchange(fakeVenue(reached), "0xbot" as Address, clock, {
      entry,
      response: latencyLane(0, 1, "response"),
    });
    // A timer due at 5 ms, armed before the first request (as the order queue's wake timer may be).
    clock.setTimer(5, () => {
      void ex.cancel("second"); // sent at 5 ms: after "first", which was sent at 0 ms
    });
    void ex.cancel("first"); // sent at 0 ms, arrives at 5 ms
    await pump.advanceTo(20);
    expect(reached).toEqual(["first", "second"]);
  });

  it("the same through the engine's OrderQueue: a cancel sent by its rate-budget wake timer overtakes a read", async () => {
    const clock = new SimClock(0);
    const pump = new Pump(clock);
    const reached: string[] = [];
    // Draws: 100 ms for the read, 0 ms for the cancel.
    const entry = new LatencyLane({ type: "empirical", samplesMs: [0, 100] }, uniformSeq(0.9, 0));
    const ex = new VenueExchange(fakeVenue(reached), "0xbot" as Address, clock, {
      entry,
      response: latencyLane(0, 1, "response"),
    });
    const budget = new RateBudget({ rateLimitPerMin: 600 });
    budget.block("cancel", 0, 100); // e.g. a 429's Retry-After (at least MIN_BLOCK_MS): cancels wait until 100 ms
    const queue = new OrderQueue({
      clock,
      port: ex,
      budget,
      sign: () => {
        throw new Error("no placement in this test");
      },
      onReport: () => {},
    });
    queue.enqueue({
      kind: "cancel",
      tokenId: "t1",
      marketId: "m1",
      clientOrderId: "c1",
      orderId: "cancelled-order",
      reason: "requote",
    });
    expect(clock.nextDeadline()).toBe(100); // the queue's wake timer, armed first
    void ex.openOrders(); // the reconciler's read, sent at 0 ms, reaches the venue at 100 ms
    await pump.advanceTo(200);
    // The cancel left at 100 ms, after the read was sent: it must not reach the venue first.
    expect(reached).toEqual(["openOrders", "cancelled-order"]);
  });
});
