import { describe, expect, it } from "vitest";
import { Harness, oldClientOrderId } from "./support/harness.js";

/**
 * An order an earlier run left resting, partly filled before this run started, is adopted at start
 * (policy adopt). The fills that complete it then arrive as user_fill frames. The order must become
 * `filled` from them alone, so its level frees at once: no cancel sent to an order that no longer
 * rests, no reconcile needed to find out. Its fills from before the start are in the exchange's
 * filledQty (the open-orders list) but never reach this run's fill intake, and the fills after it
 * are not in that figure: neither source alone is the order's filled quantity.
 */
describe("engine start-up, policy adopt: an adopted order's fills", () => {
  it("an adopted order partly filled before the start becomes filled from the stream's fills", async () => {
    const h = new Harness({
      options: {
        startupPolicy: "adopt",
        // The adopted remainder (6 of 10) is kept as the level's quote.
        tolerance: { priceTicks: 1, sizeFraction: 0.5 },
        reconcileDebounceMs: 250,
      },
    });
    const [yes] = h.tokens();
    const left = h.leftover(yes, "buy", "0.47", oldClientOrderId(yes, "buy", 1));
    h.take(yes, "sell", "0.47", "4"); // before the start: 4 of the 10 fill (in the baseline)
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run(1_000); // the start comes a second later
    await h.engine.start();
    await h.run();
    expect(h.eventsOf("started")[0]).toMatchObject({ adopted: 1 });
    expect(h.botOrders(yes).map((o) => o.id)).toContain(left); // kept: the level's bid
    h.take(yes, "sell", "0.47", "106"); // the crowd's 100 at 0.48, then the adopted order's last 6
    await h.run(); // the fill frame and the requote it causes; no clock time passes
    expect(h.botOrders(yes).map((o) => o.id)).not.toContain(left);
    expect(h.engine.positionOf(yes)).toBe(6_000_000n);
    expect(h.engine.liveOrders().map((o) => o.orderId)).not.toContain(left);
    expect(h.exchange.of("cancel").map((c) => c.arg)).not.toContain(left);
    await h.run(1_000); // past the reconcile debounce: nothing was left to find out
    expect(h.eventsOf("reconcile").map((e) => e.summary.reason)).toEqual(["startup"]);
  });
});
