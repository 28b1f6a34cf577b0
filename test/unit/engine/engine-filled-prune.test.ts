import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * The engine prunes terminal orders last changed more than 10 min ago at each reconcile. An order that
 * rested longer than that and was then filled must count as changed when it filled: otherwise the next
 * reconcile forgets it, and while its trades stay in the backfill lookback every reconcile finds them
 * unmapped and fetches the order again (GET /api/orders/{id}; an error there fails the reconcile).
 */
describe("engine: an order filled after resting longer than the prune horizon", () => {
  it("is not fetched again on every later reconcile", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const bid = h.botOrders(yes).find((o) => o.side === "buy");
    expect(bid).toBeDefined();
    await h.run(660_000); // the bid rests 11 minutes (longer than pruneAfterMs)
    h.take(yes, "sell", "0.47", "110"); // through the crowd's 100 at 0.48, then fills the bid completely
    await h.run();
    expect(h.engine.liveOrders().some((o) => o.orderId === bid?.id)).toBe(false);
    expect(h.eventsOf("fill").some((e) => e.fill.orderId === bid?.id)).toBe(true);
    const before = h.exchange.of("order").length;
    await h.run(90_000); // three periodic reconciles, within the trade lookback
    expect(h.eventsOf("reconcile").length).toBeGreaterThanOrEqual(3);
    const lookups = h.exchange.of("order").slice(before);
    expect(lookups.map((c) => c.arg)).not.toContain(bid?.id);
  });
});
