import { afterEach, describe, expect, it } from "vitest";
import { CancelReasonsRig } from "../engine/support/cancel-reasons-rig.js";

/*
 * Review 22 (rcancel). README (metrics table, mm_order_cancel_requests_total): "The same reason is
 * on the journal's cancel row and on the cancel's warn line when one fails." Only the orphan cancel,
 * the cancel-all and the shutdown sweep have such a line: a single cancel of one of our own orders
 * that fails (here: the order filled while its requote's cancel was on its way: not_cancellable)
 * logs no warn line at all, with or without its reason.
 */

let rig: CancelReasonsRig | undefined;
afterEach(() => {
  rig?.close();
  rig = undefined;
});

describe("review rcancel: a failed cancel of our own order", () => {
  it("has a warn line carrying its reason, as the README says", async () => {
    rig = new CancelReasonsRig({ latencyMs: 50 });
    const r = rig;
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    const starting = r.h.engine.start();
    await r.h.run(500);
    await starting;
    expect(r.h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    r.h.crowdQuote(yes, "0.44", "0.48"); // requote: both cancels leave, answered 50 ms on
    await r.h.run(10);
    r.h.take(yes, "sell", "0.47", "10"); // our bid fills before its cancel lands
    await r.h.run(2_000);
    const failed = r.h.eventsOf("cancel_outcome").filter((e) => e.outcome === "failed");
    expect(failed.map((e) => e.reason)).toEqual(["requote"]);
    expect(r.journaled("cancel")).toContain("requote");
    const warns = r.h.logs.records().filter((l) => l.level === 40 || l.level === "warn");
    expect(warns.some((l) => l.reason === "requote")).toBe(true);
  });
});
