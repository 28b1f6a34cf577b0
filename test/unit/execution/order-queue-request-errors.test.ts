import { describe, expect, it } from "vitest";
import { cancel, cancelAll, rig, runUntil } from "./order-queue.helpers.js";

/*
 * The error-rate halt's bound (src/config/error-rate-reach.ts) counts one error per order request the
 * queue sends. The queue reports once per intent, and one request may answer several intents: the
 * kill switch's cancel-all absorbs the market cancel-alls queued before it, a cancel carries the
 * duplicates queued for its order. A failure reported to each of them counted as N errors for one
 * request; a failure with no request at all (no orderId to cancel, cancel-all turned off before the
 * item was sent) counted as one. `requestError` marks the one report per failed request that counts.
 */

/** One slot, so the first item stays in flight while the next ones queue up behind it. */
const oneSlot = () =>
  rig({ queue: { concurrency: 1, cancelSlots: 0 }, port: { latency: () => ({ inMs: 1, outMs: 9 }) } });

describe("order queue: failed requests, one error each", () => {
  it("a failed wallet cancel-all that absorbed two market cancel-alls is one request error", async () => {
    const r = oneSlot();
    r.port.script("cancel_all", { kind: "reject", code: "invalid_request", status: 400 });
    r.queue.enqueue(cancel("c9", "o-9")); // in flight while the cancel-alls queue up
    r.queue.enqueueAll([cancelAll("m1"), cancelAll("m2")]);
    r.queue.enqueue(cancelAll(undefined)); // the kill switch absorbs both
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel_all")).toHaveLength(1);
    const failed = r.of("cancel_all").map((c) => c.outcome);
    expect(failed.map((o) => o.kind)).toEqual(["failed", "failed", "failed"]);
    expect(failed.map((o) => o.kind === "failed" && o.requestError)).toEqual([true, false, false]);
  });

  it("a failed cancel that carried a duplicate is one request error", async () => {
    const r = oneSlot();
    r.port.script("cancel", { kind: "reject", code: "invalid_request", status: 400 });
    r.queue.enqueue(cancelAll("m9")); // in flight while the cancels queue up
    r.queue.enqueueAll([cancel("c1", "o-1", "m1"), cancel("c1", "o-1", "m1")]);
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")).toHaveLength(1);
    const failed = r.of("cancel").map((c) => c.outcome);
    expect(failed.map((o) => o.kind === "failed" && o.requestError)).toEqual([true, false]);
  });

  it("a failure with no request is no request error: no orderId to cancel, cancel-all off before it was sent", async () => {
    const r = oneSlot();
    r.queue.enqueue(cancel("c0", undefined));
    r.port.script("cancel_all", { kind: "reject", code: "not_implemented", status: 501 });
    r.queue.enqueue(cancelAll("m9")); // sent: answered 501
    r.queue.enqueue(cancelAll("m1")); // queued behind it, then failed unsent
    await runUntil(r.clock, 1_000);
    const noOrderId = r.of("cancel")[0]?.outcome;
    expect(noOrderId).toMatchObject({ kind: "failed", code: "order_id_unknown", requestError: false });
    expect(r.port.of("cancel_all")).toHaveLength(1);
    const alls = r.of("cancel_all").map((c) => c.outcome);
    expect(alls.map((o) => o.kind === "failed" && o.requestError)).toEqual([true, false]);
  });
});
