import { describe, expect, it } from "vitest";
import type { Scripted } from "./order-queue.fake-port.js";
import { cancel, cancelAll, type Rig, rig, runUntil } from "./order-queue.helpers.js";

/*
 * A key without orders:write: every cancel and cancel-all is answered 403 api_key_scope_missing
 * (spec, Authentication step 5; scopes are the key's, so no retry with it passes). At the stop the
 * closing queue still sent each queued cancel at the cancel rate after the first refusal, and
 * close(), which the stop awaits, waited for every refused answer. Now, once closed, the first
 * refusal fails the rest unsent.
 */
const scopeRefused = { kind: "reject", code: "api_key_scope_missing", status: 403 } as const;
const refusedEvery = Array.from({ length: 20 }, () => scopeRefused);

/**
 * A closing queue (20 ms each way) whose cancels are answered `answers` in turn: c1 queued and
 * answered at 40 ms, then c`n` for each of `later`, run until the close has ended.
 */
async function closingAfterFirstAnswer(later: number[], ...answers: Scripted[]): Promise<Rig> {
  const r = rig({ port: { latency: () => ({ inMs: 20, outMs: 20 }) } });
  r.port.script("cancel", ...answers);
  r.queue.enqueue(cancel("c1", "o-1"));
  const closing = r.queue.close();
  await runUntil(r.clock, 100); // c1 answered at 40
  r.queue.enqueueAll(later.map((i) => cancel(`c${i}`, `o-${i}`)));
  await runUntil(r.clock, 10_000);
  await closing;
  return r;
}

describe("a closing queue whose key may not cancel (403 api_key_scope_missing)", () => {
  it("fails the queued cancels unsent once the stop's cancel-all is refused for its scope", async () => {
    const r = rig({ port: { latency: () => ({ inMs: 20, outMs: 20 }) } });
    r.port.script("cancel_all", ...refusedEvery);
    r.port.script("cancel", ...refusedEvery);
    // The stop's shape: the wallet cancel-all, then each quote's cancel.
    r.queue.enqueueAll([cancelAll(undefined), ...[1, 2, 3, 4, 5].map((i) => cancel(`c${i}`, `o-${i}`))]);
    let closedAt: number | undefined;
    void r.queue.close().then(() => {
      closedAt = r.clock.now();
    });
    await runUntil(r.clock, 10_000);
    expect(r.port.of("cancel_all")).toHaveLength(1);
    // Was: the five cancels it gave back, each sent and refused.
    expect(r.port.of("cancel")).toHaveLength(0);
    expect(closedAt).toBeLessThanOrEqual(40);
    expect(r.queue.cancelsRefused?.code).toBe("api_key_scope_missing");
    const cancels = r.of("cancel").map((c) => c.outcome);
    expect(cancels).toHaveLength(5);
    for (const o of cancels) {
      expect(o).toMatchObject({ kind: "failed", code: "api_key_scope_missing", requestError: false });
    }
    expect(r.of("cancel_all").map((c) => c.outcome.kind)).toEqual(["failed"]);
  });

  it("a single cancel refused for its scope does the same for the cancels queued after it", async () => {
    const r = await closingAfterFirstAnswer([2, 3, 4], ...refusedEvery);
    expect(r.port.of("cancel")).toHaveLength(1);
    expect(r.of("cancel").map((c) => c.outcome)).toMatchObject([
      { kind: "failed", code: "api_key_scope_missing", requestError: true },
      { kind: "failed", code: "api_key_scope_missing", requestError: false },
      { kind: "failed", code: "api_key_scope_missing", requestError: false },
      { kind: "failed", code: "api_key_scope_missing", requestError: false },
    ]);
  });

  it("while not closed (the engine running) refused cancels are still sent: a requote would only queue them again", async () => {
    const r = rig();
    r.port.script("cancel", ...refusedEvery);
    r.queue.enqueueAll([1, 2, 3].map((i) => cancel(`c${i}`, `o-${i}`)));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")).toHaveLength(3);
    expect(r.queue.cancelsRefused?.code).toBe("api_key_scope_missing");
  });

  it("a refusal naming orders:write (requiredScope, as the spec's and the mock's 403 carry it) gives up likewise", async () => {
    const details = { requiredScope: "orders:write", have: ["orders:read", "portfolio:read"] };
    const r = await closingAfterFirstAnswer([2, 3], { ...scopeRefused, details });
    expect(r.port.of("cancel")).toHaveLength(1);
    expect(r.queue.cancelsRefused?.details.requiredScope).toBe("orders:write");
  });

  it("a refusal naming another scope than orders:write does not fail the other cancels unsent", async () => {
    // A finer scope an exchange may add (say, per market): this cancel is refused, others may pass.
    const details = { requiredScope: "orders:cancel", have: ["orders:read", "orders:write"] };
    const r = await closingAfterFirstAnswer([2, 3], { ...scopeRefused, details });
    // Was: the first refusal failed c2 and c3 unsent.
    expect(r.port.of("cancel")).toHaveLength(3);
    expect(r.queue.cancelsRefused).toBeUndefined();
    expect(r.of("cancel").map((c) => c.outcome.kind)).toEqual(["failed", "done", "done"]);
  });

  it.each(["orders:cancel_all", "orders:write-own", "orders:write:cancel", "Orders:Write"])(
    "a refusal naming a scope that is not a plain scope name (%s) does not fail the other cancels unsent",
    async (requiredScope) => {
      // Such a name is not echoed (missingScope takes the endpoint's orders:write for the log), but
      // it is still a scope other than orders:write: the fallback is for a body naming none.
      const details = { requiredScope, have: ["orders:write"] };
      const r = await closingAfterFirstAnswer([2, 3], { ...scopeRefused, details });
      expect(r.port.of("cancel")).toHaveLength(3);
      expect(r.queue.cancelsRefused).toBeUndefined();
    },
  );

  it("another refusal of a cancel (order_not_found) stops nothing", async () => {
    const r = rig();
    r.port.script("cancel", { kind: "reject", code: "order_not_found", status: 404 });
    r.queue.enqueue(cancel("c1", "o-1"));
    await runUntil(r.clock, 100);
    r.queue.enqueueAll([2, 3].map((i) => cancel(`c${i}`, `o-${i}`)));
    await r.queue.close();
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel")).toHaveLength(3);
    expect(r.queue.cancelsRefused).toBeUndefined();
  });
});
