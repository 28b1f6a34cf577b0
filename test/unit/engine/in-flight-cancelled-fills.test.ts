import { describe, expect, it } from "vitest";
import { quotingAtCap } from "./support/cap-rig.js";

/**
 * A requote cancels a bid that was partly filled a moment before; the cancel is answered "done"
 * while the fill's user_fill is still on its way (the spec does not order the HTTP answer and the
 * push; a lagging or reconnecting /ws/user). The cancelled order leaves `live` (its remainder no
 * longer counts) and the position has not moved: those shares are in neither figure.
 */
describe("engine: a fill of an order answered cancelled before its notice arrived", () => {
  it("keeps the replacement bid within the hard cap", async () => {
    const { h, yes } = await quotingAtCap();
    // The exchange's truth: the shares the bot bought, plus every bid of its that can still fill.
    const worst = () => {
      const held = h.fills.reduce((s, f) => s + (f.side === "buy" ? f.sizeMicro : -f.sizeMicro), 0n);
      const bids = h.botOrders(yes).filter((o) => o.side === "buy");
      return held + bids.reduce((s, o) => s + o.remainingQty, 0n);
    };

    // The user channel lags. The crowd's bid steps back (a requote of ours follows), and a taker
    // sells 6 into our 0.47 bid before its cancel lands.
    h.dropFills = true;
    h.crowdQuote(yes, "0.40", "0.52");
    await h.run(10);
    h.take(yes, "sell", "0.47", "6");
    let most = 0n;
    for (let i = 0; i < 200; i++) {
      await h.run(10);
      if (worst() > most) most = worst();
    }
    expect(h.fills.map((f) => f.sizeMicro)).toEqual([6_000_000n]);
    // The hard cap bounds position + every bid that can still fill, at every instant.
    expect(most).toBeLessThanOrEqual(10_000_000n);
    // And the bid is back, sized beside the 6 held, once the fill is known.
    expect(h.engine.positionOf(yes)).toBe(6_000_000n);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual(["buy 0.43 4"]);
  });
});
