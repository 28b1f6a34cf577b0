import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";
import { THREE_BANDS } from "./support/stop-rig.js";

/*
 * Placements still queued when the stop begins (paper's rate budget holds a requote's burst: with
 * `npm start`, a Ctrl-C typically finds 20–30 of them) are dropped unsent by the stop's cancel-alls.
 * The stop then also sent each of them a single cancel with no exchange id, which the queue, the
 * placement already gone from its lane, refused locally `order_id_unknown`: one info line "cancel
 * found the order gone" per placement that never left, a failed cancel in the events and a
 * reconcile asked for, as if the exchange had lost an order.
 */
describe("engine stop with placements still queued", () => {
  it("drops them unsent without a failed cancel or a 'cancel found the order gone' line", async () => {
    // 2 markets × 2 tokens × 3 bands × 2 sides = 24 placements; 60 a minute lets a few out at once.
    const h = new Harness({ markets: 2, strategy: THREE_BANDS, options: { rateLimitPerMin: 60 } });
    for (let i = 1; i <= 2; i++) for (const t of h.tokens(i)) h.crowdQuote(t, "0.40", "0.60");
    await h.engine.start();
    await h.run(50);
    expect(h.eventsOf("place_sent").length).toBeLessThan(24); // the rest still wait in the queue
    const stopping = h.engine.stop("SIGINT", 3_000);
    await h.run(3_000);
    expect(await stopping).toEqual({ openOrders: 0 });
    const failed = h.eventsOf("cancel_outcome").filter((e) => e.outcome === "failed");
    expect(failed).toEqual([]);
    expect(h.logs.text()).not.toContain("order_id_unknown");
  });
});
