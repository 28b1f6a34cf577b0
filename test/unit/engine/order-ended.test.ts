import { describe, expect, it } from "vitest";
import { BOT, Harness } from "./support/harness.js";

/**
 * engine.onOrderEnded (user_orders order_cancelled): a reconcile soon when the push names an order
 * the engine holds as resting, and nothing for an order it does not know or already saw end.
 */
describe("onOrderEnded", () => {
  it("reconciles soon for a tracked resting order, once it has ended not again, never for a stranger", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const reasons = () => h.eventsOf("reconcile").map((e) => e.summary.reason);
    expect(reasons()).toEqual(["startup"]);

    h.engine.onOrderEnded("0xstranger", "not-ours");
    await h.run(1_000);
    expect(reasons()).toEqual(["startup"]);

    const victim = h.botOrders(yes)[0];
    if (victim === undefined) throw new Error("no quote");
    expect(h.venue.cancel(BOT, victim.id).ok).toBe(true);
    h.engine.onOrderEnded(victim.id, victim.clientOrderId);
    await h.run(1_000);
    expect(reasons()).toEqual(["startup", "order_ended"]);
    // The reconcile found it cancelled and the level quoted again.
    expect(h.botOrders(yes).some((o) => o.side === victim.side && o.id !== victim.id)).toBe(true);

    h.engine.onOrderEnded(victim.id, victim.clientOrderId);
    await h.run(1_000);
    expect(reasons()).toEqual(["startup", "order_ended"]);
  });
});
