import { describe, expect, it } from "vitest";
import { cancel, rig, runUntil } from "./order-queue.helpers.js";

/*
 * A substituted cancel-all answered ambiguously (a timeout, 500, 502, 504) pauses substitution in its
 * market like a failed one: the cancels it covered are reported ambiguous, the reconciler finds the
 * orders still open, and when the order manager cancels them again they go singly. Before (114dbc1's
 * pause started only on a definite or exhausted retryable failure), an exchange whose cancel-all
 * endpoint answered 500 every time while single cancels worked took every batch of a market's
 * cancels into another doomed cancel-all: the quotes the bot wanted gone were never pulled, and
 * nothing counted towards the halt (ambiguous answers did not count then; now the first covered
 * cancel's report counts the request: order-queue-ambiguous-errors.test.ts).
 */

const coids = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}`);

describe("order queue: a substituted cancel-all answered ambiguously", () => {
  it("the same cancels, asked again after the reconciler found the orders open, go singly", async () => {
    const ids = coids("c", 6);
    const r = rig({ queue: { restingOrders: (m) => (m === "m1" ? ids : []) } });
    r.port.script("cancel_all", ...Array.from({ length: 10 }, () => ({ kind: "ambiguous" as const })));
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel_all")).toHaveLength(1);
    expect(r.of("cancel").map((x) => x.outcome.kind)).toEqual(Array(6).fill("ambiguous"));
    expect(r.of("substitution_failed")).toEqual([]); // ambiguous: its cancels are not given back
    // The reconciler found all six still open; the order manager cancels them again.
    r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
    await runUntil(r.clock, 2_000);
    expect(r.port.of("cancel_all"), "a second doomed cancel-all").toHaveLength(1);
    expect(r.port.of("cancel")).toHaveLength(6);
    expect(
      r
        .of("cancel")
        .slice(6)
        .map((x) => x.outcome.kind),
    ).toEqual(Array(6).fill("done"));
  });
});
