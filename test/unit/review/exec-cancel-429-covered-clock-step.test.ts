import { describe, expect, it } from "vitest";
import type { Clock } from "../../../src/core/clock.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { OrderQueue } from "../../../src/execution/order-queue.js";
import type { QueueReport } from "../../../src/execution/order-queue-types.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { FakeExchangePort } from "../execution/order-queue.fake-port.js";
import { cancel, cancelAll, runUntil, testSign } from "../execution/order-queue.helpers.js";

/*
 * Review 17 (r3a), 119284a. A single cancel answered 429 is reported `covered` when a cancel-all of
 * its scope "sent after the cancel was enqueued" succeeded (QueueState.#cleared). Both instants are
 * the queue's clock.now() — the WALL clock in the daemon (Clock.now: "which NTP or a VM resume may
 * step"). After the wall clock steps back, a cancel enqueued (really) long after a cancel-all reads
 * as enqueued before it was sent, so its 429 is answered `covered` by a cancel-all that ran before its
 * order even existed: the order rests while the engine books it cancelled. #cleared is never
 * forgotten, so any later step back within the gap does it. The codebase keeps elapsed-time
 * comparisons on monotonicNow(clock) for exactly this reason.
 */
describe("a 429'd cancel is not covered by a cancel-all that ran before it (wall clock stepped back)", () => {
  it("retries the cancel instead of reporting it covered", async () => {
    const sim = new SimClock(0);
    let stepMs = 0;
    // The wall clock: steps back by `stepMs`; the monotonic reading does not.
    const wall: Clock = {
      now: () => sim.now() - stepMs,
      monotonic: () => sim.now(),
      setTimer: (d, fn) => sim.setTimer(d, fn),
      cancelTimer: (id) => sim.cancelTimer(id),
    };
    const port = new FakeExchangePort({ clock: sim });
    const budget = new RateBudget({ rateLimitPerMin: 600 });
    const reports: QueueReport[] = [];
    const queue = new OrderQueue({
      clock: wall,
      port,
      budget,
      sign: testSign,
      onReport: (r) => reports.push(r),
      rateLimitState: (e) => port.rateLimit(e),
    });
    // A market cancel-all (a pause) succeeds at wall 0.
    queue.enqueue(cancelAll("m1"));
    await runUntil(sim, 5_000);
    expect(reports.filter((r) => r.kind === "cancel_all").map((r) => r.outcome.kind)).toEqual(["done"]);
    // NTP steps the wall clock back 10 s. The market reopens; a new order o-9 rests; its cancel is
    // enqueued (wall −5 000, really 5 s after the cancel-all) and answered 429 once.
    stepMs = 10_000;
    port.script("cancel", { kind: "limited", retryAfterMs: 1_000 });
    queue.enqueue(cancel("c9", "o-9", "m1"));
    await runUntil(sim, 20_000);
    const outcomes = reports.filter((r) => r.kind === "cancel").map((r) => r.outcome.kind);
    // Before a fix: ["covered"], one request sent, o-9 never cancelled.
    expect(outcomes).toEqual(["done"]);
    expect(port.of("cancel")).toHaveLength(2);
  });
});
