import { describe, expect, it } from "vitest";
import type { Clock } from "../../../src/core/clock.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { OrderQueue } from "../../../src/execution/order-queue.js";
import type { QueueReport } from "../../../src/execution/order-queue-types.js";
import { RateBudget } from "../../../src/execution/rate-budget.js";
import { FakeExchangePort } from "./order-queue.fake-port.js";
import { cancel, cancelAll, runUntil, testSign } from "./order-queue.helpers.js";

/*
 * A single cancel answered 429 is reported `covered` only when a cancel-all of its scope sent after
 * the cancel was enqueued succeeded (QueueState.coverRateLimited). "After" is the queue's sequence,
 * not its clock: that is the wall clock in the daemon, and after it steps back (NTP, a VM resume) a
 * cancel enqueued long after a cancel-all read as enqueued before it was sent, so its 429 was
 * answered `covered` by a cancel-all that ran before its order existed: the order rested while the
 * engine booked it cancelled (review 17 r3a).
 */
/** A queue on a wall clock that steps back by `step.ms` while its monotonic reading does not. */
function steppingRig(latency?: () => { inMs: number; outMs: number }) {
  const sim = new SimClock(0);
  const step = { ms: 0 };
  const wall: Clock = {
    now: () => sim.now() - step.ms,
    monotonic: () => sim.now(),
    setTimer: (d, fn) => sim.setTimer(d, fn),
    cancelTimer: (id) => sim.cancelTimer(id),
  };
  const port = new FakeExchangePort({ clock: sim, ...(latency === undefined ? {} : { latency }) });
  const reports: QueueReport[] = [];
  const queue = new OrderQueue({
    clock: wall,
    port,
    budget: new RateBudget({ rateLimitPerMin: 600 }),
    sign: testSign,
    onReport: (r) => reports.push(r),
    rateLimitState: (e) => port.rateLimit(e),
  });
  const outcomes = (kind: "cancel" | "cancel_all") =>
    reports.flatMap((r) => (r.kind === kind && "outcome" in r ? [r.outcome.kind] : []));
  return { sim, step, port, queue, outcomes };
}

describe("a 429'd cancel is not covered by a cancel-all that ran before it (wall clock stepped back)", () => {
  it("one that already succeeded: the cancel is retried instead of reported covered", async () => {
    const { sim, step, port, queue, outcomes } = steppingRig();
    // A market cancel-all (a pause) succeeds at wall 0.
    queue.enqueue(cancelAll("m1"));
    await runUntil(sim, 5_000);
    expect(outcomes("cancel_all")).toEqual(["done"]);
    // NTP steps the wall clock back 10 s. The market reopens; a new order o-9 rests; its cancel is
    // enqueued (wall −5 000, really 5 s after the cancel-all) and answered 429 once.
    step.ms = 10_000;
    port.script("cancel", { kind: "limited", retryAfterMs: 1_000 });
    queue.enqueue(cancel("c9", "o-9", "m1"));
    await runUntil(sim, 20_000);
    // Before the fix: ["covered"], one request sent, o-9 never cancelled.
    expect(outcomes("cancel")).toEqual(["done"]);
    expect(port.of("cancel")).toHaveLength(2);
  });

  it("one still in flight, sent before the cancel was enqueued: not ridden on", async () => {
    let n = 0;
    const slowFirst = () => (n++ === 0 ? { inMs: 50, outMs: 50 } : { inMs: 1, outMs: 1 });
    const { sim, step, port, queue, outcomes } = steppingRig(slowFirst);
    queue.enqueue(cancelAll("m1")); // sent at wall 0, in flight until 100
    await runUntil(sim, 10);
    step.ms = 1_000; // the cancel is enqueued at wall −990: "before" the cancel-all's send by the clock
    port.script("cancel", { kind: "limited", retryAfterMs: 1_000 });
    queue.enqueue(cancel("c1", "o-1", "m1"));
    await runUntil(sim, 10_000);
    // Before the fix: ["covered"] by the in-flight cancel-all, one request sent.
    expect(outcomes("cancel")).toEqual(["done"]);
    expect(port.of("cancel")).toHaveLength(2);
  });
});
