import { describe, expect, it } from "vitest";
import { SUBSTITUTION_PAUSE_MS } from "../../../src/execution/order-queue-state.js";
import type { QueueReport } from "../../../src/execution/order-queue-types.js";
import { cancel, rig, runUntil } from "./order-queue.helpers.js";

/*
 * A cancel-all the queue SUBSTITUTES for a market's single cancels answers no intent of the engine's,
 * yet it is a request sent: when it fails, one `substitution_failed` report carries requestError, so
 * the error-rate halt counts it ("one error per request sent", FailedRequest) and the engine logs it.
 * Its cancels go back to the cancel lane, and no cancel-all is substituted in that market for
 * SUBSTITUTION_PAUSE_MS: they go singly at once. Before, nothing was reported, and the next pump
 * substituted them again while the cancel-all bucket had a token: an exchange refusing every cancel-all
 * (a 400 on its body, a 403 on a key's scope) got five doomed cancel-alls a second that nobody counted
 * or logged, and the market's cancels waited behind each.
 */

const coids = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}`);

/** Six cancels in m1 (all of ours there, so the queue substitutes), every cancel-all answered 400. */
function refusingRig() {
  const ids = coids("c", 6);
  const live = { ids };
  const r = rig({ queue: { restingOrders: (m) => (m === "m1" ? live.ids : []) } });
  r.port.script(
    "cancel_all",
    ...Array.from({ length: 10 }, () => ({
      kind: "reject" as const,
      code: "invalid_request",
      status: 400,
    })),
  );
  r.queue.enqueueAll(ids.map((id, i) => cancel(id, `o-${i}`)));
  /** Cancels every order of ours in m1 (the order manager's resting orders become these). */
  const cancelAllOf = (p: string) => {
    live.ids = coids(p, 6);
    r.queue.enqueueAll(live.ids.map((id, i) => cancel(id, `${p}-${i}`)));
  };
  return { ...r, cancelAllOf };
}

const countedErrors = (reports: QueueReport[]) =>
  reports.filter(
    (x) =>
      (x.kind === "cancel" || x.kind === "cancel_all" || x.kind === "substitution_failed") &&
      x.outcome.kind === "failed" &&
      x.outcome.requestError,
  ).length;

describe("order queue: a substituted cancel-all that fails", () => {
  it("counts as one request error, like any other failed order request", async () => {
    const r = refusingRig();
    await runUntil(r.clock, 1_000);
    const sentAlls = r.port.of("cancel_all").length;
    expect(sentAlls).toBeGreaterThanOrEqual(1);
    // The single cancels succeed (unscripted): every failed request is a cancel-all.
    expect({ sentAlls, counted: countedErrors(r.reports) }).toEqual({ sentAlls, counted: sentAlls });
    expect(r.of("substitution_failed")).toMatchObject([
      { marketId: "m1", cancels: 6, outcome: { code: "invalid_request", requestError: true } },
    ]);
  });

  it("is not substituted again at once: the market's cancels go singly", async () => {
    const r = refusingRig();
    await runUntil(r.clock, 1_000);
    expect(r.port.of("cancel_all")).toHaveLength(1);
    expect(r.port.of("cancel")).toHaveLength(6);
    expect(r.of("cancel").map((x) => x.outcome.kind)).toEqual(Array(6).fill("done"));
  });

  it("substitutes again in that market once the pause is over", async () => {
    const r = refusingRig();
    await runUntil(r.clock, 1_000);
    r.cancelAllOf("d");
    await runUntil(r.clock, 2_000);
    expect(r.port.of("cancel_all")).toHaveLength(1); // paused: these go singly too
    expect(r.port.of("cancel")).toHaveLength(12);
    await runUntil(r.clock, SUBSTITUTION_PAUSE_MS + 1);
    r.cancelAllOf("e");
    await runUntil(r.clock, SUBSTITUTION_PAUSE_MS + 1_000);
    expect(r.port.of("cancel_all")).toHaveLength(2);
    expect(r.port.of("cancel")).toHaveLength(18);
    expect(countedErrors(r.reports)).toBe(2);
  });
});
