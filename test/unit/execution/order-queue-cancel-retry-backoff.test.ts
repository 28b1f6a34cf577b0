import { describe, expect, it } from "vitest";
import { cancel, cancelAll, rig, runUntil } from "./order-queue.helpers.js";

/**
 * Spec, Limits → Retry guidance 2: "On 5xx use exponential backoff with jitter starting at 200 ms,
 * capped at 10 s". The queue re-sends a cancel (and a cancel-all) answered 503 `exchange_unavailable`
 * as soon as the answer is in: all attempts are spent within a few round trips of one blip.
 */
describe("order queue: cancels re-sent after a 503 back off", () => {
  it("waits at least 200 ms before re-sending a cancel answered 503", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.port.script("cancel", { kind: "unavailable" }, { kind: "unavailable" });
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 5_000);
    const sent = r.port.of("cancel").map((c) => c.sentAt);
    expect(sent).toHaveLength(3);
    // Today: [0, 10, 20] — each retry leaves the instant the 503 is answered.
    expect((sent[1] ?? 0) - 10).toBeGreaterThanOrEqual(200);
    expect((sent[2] ?? 0) - (sent[1] ?? 0) - 10).toBeGreaterThanOrEqual(200);
  });

  it("waits at least 200 ms before re-sending the kill switch answered 503", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 1, outMs: 9 }) } });
    r.port.script("cancel_all", { kind: "unavailable" });
    r.queue.enqueue(cancelAll(undefined));
    await runUntil(r.clock, 5_000);
    const sent = r.port.of("cancel_all").map((c) => c.sentAt);
    expect(sent).toHaveLength(2);
    expect((sent[1] ?? 0) - 10).toBeGreaterThanOrEqual(200);
  });
});
