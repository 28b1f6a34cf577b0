import { describe, expect, it } from "vitest";
import { Harness, oldClientOrderId } from "./support/harness.js";

/**
 * A token's first mark moves the kill switch's peak only by what the run started with (the restored
 * position at its first mark). A fill of this run before the token's first mid (an adopted order of
 * an earlier run filling while the book still waits for its snapshot) is this run's loss, and
 * counts: a review found the first mark's shift hiding it.
 */
describe("engine kill switch: a fill of this run before the token's first mark", () => {
  it("its loss at the first mark counts as drawdown (it is this run's trade, not a held position)", async () => {
    const h = new Harness({
      risk: { killSwitch: { maxDrawdown: "1" } },
      withhold: ["11"],
      latencyMs: 100,
      options: { startupPolicy: "adopt", tolerance: { priceTicks: 1, sizeFraction: 0.5 } },
    });
    const [yes] = h.tokens();
    // An earlier run's bid left resting: 10 at 0.60.
    const left = h.leftover(yes, "buy", "0.60", oldClientOrderId(yes, "buy", 1));
    const starting = h.engine.start();
    // Step until the start is done, then at once (the unquotable token's cancel still on its way).
    while (h.eventsOf("started").length === 0) await h.run(5);
    await starting;
    expect(h.botOrders(yes).map((o) => o.id)).toContain(left);
    expect(h.eventsOf("started")[0]).toMatchObject({ adopted: 1 });
    expect(h.engine.status()).toMatchObject({ killSwitch: false, pnlMicro: 0n, drawdownMicro: 0n });
    // The market falls: a taker sells into the adopted bid at 0.60 (this run's fill, before any mid:
    // e.g. while the cancel of the unquotable token's adopted order is on its way).
    h.take(yes, "sell", "0.60", "10");
    await h.run(1_000);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    // The book's first snapshot at last: mid 0.30, the 10 bought at 0.60 are worth 3 USDC less.
    h.crowdQuote(yes, "0.28", "0.32");
    h.withheld.delete(yes);
    await h.run(60_000);
    expect(h.tracker.state(yes)?.status).toBe("synced");
    expect(h.engine.status().pnlMicro).toBe(-3_000_000n);
    // A −3 USDC loss of this run against a 1 USDC limit: the switch must trip.
    expect(h.engine.status().drawdownMicro).toBe(3_000_000n);
    expect(h.engine.status().killSwitch).toBe(true);
  });
});
