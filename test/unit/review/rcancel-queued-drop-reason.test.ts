import { afterEach, describe, expect, it } from "vitest";
import { parseStrategyConfig } from "../../../strategies/registry.js";
import { CancelReasonsRig } from "../engine/support/cancel-reasons-rig.js";

/*
 * Review 22 (rcancel). A queued placement (not yet sent) whose level the risk guard then drops is
 * retired by the diff as `superseded` — README: "a queued placement replaced before it was sent" —
 * though nothing replaced it: a risk limit emptied the level. namedCancels renames only the diff's
 * `not_desired` cancels of open orders, so the operator reading
 * mm_order_cancel_requests_total{reason} sees the risk limit's drops as churn (superseded) and
 * risk_limit stays at 0 for them.
 */

let rig: CancelReasonsRig | undefined;
afterEach(() => {
  rig?.close();
  rig = undefined;
});

describe("review rcancel: a queued placement withdrawn for a risk limit", () => {
  it("is counted risk_limit, not superseded", async () => {
    let size = "2";
    const bands = () =>
      parseStrategyConfig({ name: "bands", params: { reference: "mid", bands: [{ margin: "0.03", size }] } });
    let inner = bands();
    rig = new CancelReasonsRig({
      latencyMs: 50,
      options: { queue: { concurrency: 1 } },
      risk: { order: { maxSize: "5", oversize: "drop" } },
      configured: { name: inner.name, params: inner.params, quote: (ctx) => inner.quote(ctx) },
    });
    const r = rig;
    const [yes] = r.h.tokens();
    r.h.crowdQuote(yes, "0.48", "0.52");
    const starting = r.h.engine.start();
    await r.h.run(500);
    await starting;
    expect(r.h.botQuotes(yes)).toHaveLength(2);
    // The crowd moves: the cancels go first, one request at a time; the replacements wait queued.
    r.h.crowdQuote(yes, "0.44", "0.48");
    await r.h.run(10);
    // Now the strategy asks for more than the order-size limit: the guard drops both levels.
    size = "10";
    inner = bands();
    r.h.crowdQuote(yes, "0.43", "0.48");
    await r.h.run(1_000);
    expect(r.h.botQuotes(yes)).toEqual([]);
    const dropped = r.h.eventsOf("decision").filter((e) => e.decision.reason === "order_size_exceeded");
    expect(dropped.length).toBeGreaterThan(0);
    // The queued replacements were withdrawn because the limit dropped their levels.
    expect(r.requested()).not.toContain("superseded");
    expect((await r.counted()).superseded ?? 0).toBe(0);
    expect((await r.counted()).risk_limit ?? 0).toBeGreaterThanOrEqual(1);
  });
});
