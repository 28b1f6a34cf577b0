import { afterEach, describe, expect, it } from "vitest";
import { gateCancelReason } from "../../../src/engine/cancel-reasons.js";
import { marketDecision } from "../../../src/risk/decision.js";
import { CancelReasonsRig } from "../engine/support/cancel-reasons-rig.js";
import { oldClientOrderId } from "../engine/support/harness.js";

/*
 * review22 rmark: cc65cc8 made market_unquotable a CancelReason ("its cancels count as
 * market_unquotable", README's mm_order_cancel_requests_total row), but the enforced decision's
 * cancel-all goes through gateCancelReason, whose GATES set (src/engine/cancel-reasons.ts) was not
 * given the new gate: the market cancel-all of a fee hold is asked for, counted and journaled as
 * `risk_limit`. Resting orders meet it whenever the hold begins with orders live: an earlier run's
 * orders adopted at start on a market listed above the cap, or a fee read above it mid-run.
 */

let rig: CancelReasonsRig | undefined;
afterEach(() => {
  rig?.close();
  rig = undefined;
});

describe("review rmark: the fee hold's cancels carry market_unquotable", () => {
  it("gateCancelReason of a market_unquotable decision is market_unquotable", () => {
    expect(gateCancelReason(marketDecision("market_unquotable", "m1", { status: "FEE_TOO_HIGH" }))).toBe(
      "market_unquotable",
    );
  });

  it("an earlier run's order adopted on a market listed at 1500 bps: cancelled as market_unquotable", async () => {
    rig = new CancelReasonsRig({ options: { startupPolicy: "adopt" }, fee: () => 1500 });
    const r = rig;
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    r.h.leftover(yes, "buy", "0.47", oldClientOrderId(yes, "buy", 1));
    await r.h.engine.start();
    await r.h.run();
    expect(r.h.botQuotes(yes)).toEqual([]);
    expect(r.requested()).toEqual(["market_unquotable"]);
    expect(await r.counted()).toEqual({ market_unquotable: 1 });
    // One order: the market cancel-all goes out as that order's cancel.
    expect(r.journaled("cancel")).toEqual(["market_unquotable"]);
  });
});
