import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { PlaceOrderRequest } from "../../../src/core/types.js";
import type { PlaceOrderOutcome } from "../../../src/exchange/place-outcome.js";
import type { CancelAllResult } from "../../../src/exchange/types.js";
import { OrderQueue } from "../../../src/execution/order-queue.js";
import type { QueueReport } from "../../../src/execution/order-queue-types.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { cancel, cancelAll, place, settle, testSign } from "./order-queue.helpers.js";

/**
 * An exchange whose placements hang (a slow matcher: they are answered only when `answerPlacements`
 * is called, as a 10 s request timeout would) while cancels and cancel-alls answer at once.
 */
class SlowPlacePort {
  readonly sent: string[] = [];
  readonly #hanging: Array<() => void> = [];
  #next = 1;

  place(req: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    this.sent.push(`place:${req.clientOrderId}`);
    return new Promise((resolve) => {
      this.#hanging.push(() =>
        resolve({
          kind: "accepted",
          result: {
            orderId: `o-${this.#next++}`,
            status: "OPEN",
            filledQty: "0",
            remainingQty: req.quantity,
            trades: [],
          },
          requestId: undefined,
        }),
      );
    });
  }

  async cancel(orderId: string): Promise<{ orderId: string; status: string }> {
    this.sent.push(`cancel:${orderId}`);
    return { orderId, status: "CANCELLED" };
  }

  async cancelAll(marketId?: string): Promise<CancelAllResult> {
    this.sent.push(`cancel_all:${marketId ?? "*"}`);
    return { cancelled: 0 };
  }

  answerPlacements(): void {
    for (const f of this.#hanging.splice(0)) f();
  }
}

function setup() {
  const clock = new SimClock(0);
  const port = new SlowPlacePort();
  const reports: QueueReport[] = [];
  const queue = new OrderQueue({
    clock,
    port,
    sign: testSign,
    budget: new RateBudget({ rateLimitPerMin: 600 }),
    onReport: (r) => reports.push(r),
    // default concurrency (16), as the daemon runs it
  });
  return { clock, port, queue, reports };
}

describe("order queue: cancels must never wait behind placements", () => {
  it("sends the kill-switch cancel-all while 16 placements hang in flight", async () => {
    const { port, queue } = setup();
    // One requote burst of 16 placements: well inside the place budget (50/s, burst 167 on the IP bucket).
    queue.enqueueAll(
      Array.from({ length: 16 }, (_, i) => place(`p${i}`, { token: `t${i}`, market: `m${i}` })),
    );
    await settle();
    // The risk guard trips: the kill switch. Its bucket (cancel-all 5/s) is full.
    queue.enqueue(cancelAll(undefined));
    await settle();
    // Fails today: all 16 p-queue slots hold placements, so the cancel-all sits in the queue until one
    // of them is answered (up to the 10 s request timeout).
    expect(port.sent).toContain("cancel_all:*");
    port.answerPlacements();
    await settle();
  });

  it("sends a single cancel of a resting order while 16 placements hang in flight", async () => {
    const { port, queue } = setup();
    queue.enqueueAll(
      Array.from({ length: 16 }, (_, i) => place(`p${i}`, { token: `t${i}`, market: `m${i}` })),
    );
    await settle();
    queue.enqueue(cancel("resting", "o-resting", "m-other"));
    await settle();
    expect(port.sent).toContain("cancel:o-resting");
    port.answerPlacements();
    await settle();
  });
});
