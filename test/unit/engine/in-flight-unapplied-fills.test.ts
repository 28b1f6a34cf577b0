import { describe, expect, it } from "vitest";
import { Harness } from "./support/harness.js";

/**
 * The in-flight fit counts, per side, the remaining size (size − filledMicro) of every live order,
 * and the caps count the position. filledMicro is max(Σ fills applied, the exchange's filledQty):
 * a placement answered FILLED (or PARTIAL) sets it from the answer's filledQty, and a FILLED answer
 * makes the order terminal (out of `live`), while inventory moves only when the user_fill arrives.
 * The spec does not order the HTTP answer and the WebSocket push. The shares the exchange reported
 * filled that inventory has not taken yet (OrderStore.unapplied) count as position for the caps
 * (withUnapplied, unapplied-exposure.ts).
 */
describe("engine: fills answered before they reach inventory count against the caps", () => {
  /**
   * A hard cap of `hard`, our bid 0.47 × 10 on its way while the crowd's ask of `askSize` comes down
   * to it (and another crowd ask rests at 0.55, so that the book stays two-sided when it is taken).
   */
  async function answeredBeforeFill(hard: string, askSize = "100"): Promise<{ h: Harness; yes: string }> {
    const risk = { inventory: { perMarket: { soft: hard, hard } } };
    // No reconcile within the test's window: its trade read would bring the fills itself.
    const h = new Harness({ risk, latencyMs: 50, options: { reconcileDebounceMs: 60_000 } });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    const starting = h.engine.start();
    for (let i = 0; i < 2_000 && h.exchange.of("place").length === 0; i++) await h.run(1);
    // The user channel lags: the bot's fills are held until delivered by hand.
    h.dropFills = true;
    h.crowdQuote(yes, "0.40", "0.47", askSize);
    h.crowdOrder(yes, "sell", "0.55", "100");
    await h.run(500);
    await starting;
    return { h, yes };
  }

  async function deliverFills(h: Harness): Promise<void> {
    h.dropFills = false;
    for (const f of h.fills) h.engine.onFill(f);
    await h.run(500);
  }

  it("a placement answered FILLED keeps a new bid from resting beyond the hard cap before its fill arrives", async () => {
    const { h, yes } = await answeredBeforeFill("10");
    expect(h.fills.map((f) => f.sizeMicro)).toEqual([10_000_000n]);
    expect(h.engine.positionOf(yes)).toBe(0n); // the fill has not reached the engine yet

    // The position is 10 on the exchange; the hard cap of 10 leaves no room for another bid.
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual([]); // was ["buy 0.4 10"]
    // The guard sees the 10 on their way as position: the side is blocked at the cap.
    const blocked = h.eventsOf("decision").filter((e) => e.decision.reason === "hard_cap_side_blocked");
    expect(blocked.some((e) => e.decision.side === "buy")).toBe(true);

    // A sweep finds no bid of ours; then the user channel catches up.
    h.take(yes, "sell", "0.30", "200");
    await h.run(10);
    await deliverFills(h);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n); // 20 without the fit's account of it
  });

  it("once the fill arrives nothing stays held: the side quotes as the cap allows", async () => {
    // The crowd's ask is 10 at 0.47: ours is the best ask once it is taken.
    const { h, yes } = await answeredBeforeFill("15", "10");
    const bidSizes = () => h.botQuotes(yes).flatMap((q) => (q.startsWith("buy") ? [q.split(" ")[2]] : []));
    // 5 of room beside the 10 on their way.
    expect(bidSizes()).toEqual(["5"]);
    const placed = h.exchange.of("place").length;
    await deliverFills(h);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    // The fill moved 10 from "on its way" into the position: the room is the same, the quote stands.
    expect(bidSizes()).toEqual(["5"]);
    expect(h.exchange.of("place")).toHaveLength(placed);

    // A buyer lifts our ask (below the crowd's 0.55): the position falls to 0, and the bid is back
    // to its full size.
    h.take(yes, "buy", "0.54", "10");
    await h.run(500);
    expect(h.engine.positionOf(yes)).toBe(0n);
    expect(bidSizes()).toEqual(["10"]);
  });

  it("a placement answered PARTIAL: its filled part and its remainder both count", async () => {
    // Only 4 of the crowd's ask at 0.47: our bid is answered PARTIAL 4 and rests 6. The book moves,
    // so it is cancel-replaced: the replacement waits for the cancel (4 filled + 6 resting = the
    // cap), and then for a reconcile's trade read (the 6 cancelled may have filled before the
    // cancel: order-store-cancelled.ts), then goes out with the 6 of room the 4 leave.
    const { h, yes } = await answeredBeforeFill("10", "4");
    expect(h.fills.map((f) => f.sizeMicro)).toEqual([4_000_000n]);
    expect(h.engine.positionOf(yes)).toBe(0n);
    expect(h.botQuotes(yes).filter((q) => q.startsWith("buy"))).toEqual([]);
    await h.run(60_000); // the reconcile: its trade read brings the 4 (the user channel still lags)
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    const bids = h.botQuotes(yes).filter((q) => q.startsWith("buy"));
    expect(bids).toHaveLength(1);
    expect(bids[0]).toMatch(/ 6$/); // 10 without the account of the 4
    h.take(yes, "sell", "0.30", "200");
    await h.run(10);
    await deliverFills(h);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n); // 14 without it
  });
});
