import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { BOT, Harness } from "./support/harness.js";

/**
 * A reconcile asked for while the start-up reconcile runs (a /ws/user reconnect: fills may have been
 * missed after it read the trades) is queued by the scheduler as the run to follow, and must act
 * although start() has not returned yet: the engine gates on "the start-up run has completed", not
 * on "started". Otherwise the lost fill waits for the next periodic reconcile (30 s).
 */
describe("engine lifecycle: a reconnect during the start-up reconcile", () => {
  it("is served by a reconcile soon after start, not by the next periodic one", async () => {
    const h = new Harness({
      latencyMs: 20,
      options: { startupPolicy: "adopt", reconcileDebounceMs: 1, reconcileIntervalMs: 30_000 },
    });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const m = h.markets[0];
    if (m === undefined) throw new Error("no market");
    // An order an earlier run left: adopted at start.
    h.venue.place({
      wallet: BOT,
      marketId: m.marketId,
      outcome: m.outcome,
      side: "buy",
      price: toWei("0.47", "price"),
      quantity: toWei("10", "qty"),
    });
    const starting = h.engine.start();
    // positions, then the start-up reconcile: open orders, trades (read at +60), positions (at +80)
    await h.run(70);
    expect(h.exchange.of("trades").length).toBeGreaterThan(0); // its trades are read
    expect(h.eventsOf("started")).toHaveLength(0); // …and it has not finished
    h.dropFills = true; // the user channel drops: this fill never arrives on the socket
    h.take(yes, "sell", "0.47", "105"); // fills the crowd's 100 and 5 of our adopted 10
    h.dropFills = false;
    h.engine.onReconnect(); // the channel is back: reconcile
    await h.run(2_000); // well before the first periodic reconcile (30 s)
    await starting;
    expect(h.fills.filter((f) => f.tokenId === yes)).toHaveLength(1);
    // (Nothing else asks for a reconcile here: the adopted remainder is cancel-replaced, cleanly.)
    expect(h.eventsOf("reconcile").map((e) => e.summary.reason)).toContain("reconnect");
    expect(h.engine.positionOf(yes)).toBe(5_000_000n);
  });
});
