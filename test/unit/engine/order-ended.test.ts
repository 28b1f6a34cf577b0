import { describe, expect, it } from "vitest";
import { sleep } from "../../../src/core/clock.js";
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

  it("an order pushed ended before its placement's answer is reconciled when the answer comes (not at the periodic run)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // The answers of the next placements come 50 ms after the matcher took them.
    const place = h.exchange.place.bind(h.exchange);
    h.exchange.place = async (req) => {
      const out = await place(req);
      await sleep(h.clock, 50);
      return out;
    };
    h.crowdQuote(yes, "0.46", "0.50"); // a requote: a new bid and ask on their way
    await h.run(10);
    // The exchange ends the new bid (an operator's cancel, a market's orders cancelled at a pause)
    // and pushes order_cancelled before the placement's answer (OPEN) reaches mm.
    const bid = h.botOrders(yes).find((o) => o.side === "buy");
    if (bid === undefined) throw new Error("no bid resting");
    expect(h.venue.cancel(BOT, bid.id).ok).toBe(true);
    h.engine.onOrderEnded(bid.id, bid.clientOrderId);
    await h.run(1_000); // well before the periodic reconcile (30 s)
    expect(h.eventsOf("reconcile").map((e) => e.summary.reason)).toEqual(["startup", "order_ended"]);
    // mm no longer holds it resting, and the bid level is quoted again.
    expect(h.engine.liveOrders().map((o) => o.orderId)).not.toContain(bid.id);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toHaveLength(1);
  });
});
