import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * stop() while start() is still awaiting (here: the new start-up read of GET /api/platform/status,
 * which can take up to 3 × 10 s of HTTP timeouts; a fatal /ws close calls engine.stop() during
 * start in the daemon). Once stop() has resolved ("engine stopped: no open orders"), the pending
 * start() must not go on: it re-enables quoting, starts the reconcile scheduler and arms the
 * closesAt timers (market-closes.ts) after stop() cleared them, so they are never cancelled.
 */
describe("engine review: stop() during start()", () => {
  it("a start() resumed after stop() neither arms closesAt timers nor quotes again", async () => {
    const h = new Harness({ markets: 1, platformStatus: true });
    const [yes] = h.tokens(1);
    h.crowdQuote(yes, "0.48", "0.52");
    // The status read is slow to answer (the watch calls exchange.platformFrozen at read time).
    let answer: (frozen: boolean) => void = () => undefined;
    h.exchange.platformFrozen = () =>
      new Promise<boolean>((resolve) => {
        answer = resolve;
      });
    const started = h.engine.start();
    await h.run(10);
    const stopped = h.engine.stop("SIGTERM", 1_000);
    await h.run(2_000);
    expect(await stopped).toEqual({ openOrders: 0 });

    answer(false);
    await started;
    await h.run(10);
    // Nothing may be scheduled by a stopped engine: the market's close timer (closesAt T0 + 1 h) is.
    expect(h.clock.nextDeadline()).toBeUndefined();
    // And it must not quote: a book change after stop runs a quoting step that wants to place.
    const quotesBefore = h.eventsOf("quote").length;
    h.crowdQuote(yes, "0.47", "0.51");
    await h.run(10);
    expect(
      h
        .eventsOf("quote")
        .slice(quotesBefore)
        .filter((e) => e.places > 0),
    ).toEqual([]);
    expect(h.engine.status().quotingTokens).toBe(0);
  });
});
