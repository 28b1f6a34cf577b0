import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { BOT, Harness } from "./support/harness.js";

/** A bid of the bot's wallet left by an earlier run, resting on the venue. */
function leftoverBid(h: Harness, tokenId: string, price: string): string {
  const m = h.markets.find((x) => x.tokenId === tokenId);
  if (m === undefined) throw new Error("unknown token");
  return h.venue.place({
    wallet: BOT,
    marketId: m.marketId,
    outcome: m.outcome,
    side: "buy",
    price: toWei(price, "price"),
    quantity: toWei("10", "qty"),
  }).orderId;
}

/**
 * The baseline instant is the venue's time of the positions read (positionsAt), and the fills of
 * that very millisecond are split by whether they reached the engine before the positions answer:
 * before it they were made before the read (in the positions), after it they were not. The harness
 * runs on one SimClock without advancing it, so every event here shares the baseline's millisecond.
 */
describe("engine start-up: the fills of the baseline's own millisecond", () => {
  it("a fill that came before the positions answer is in the baseline: applied neither from the stream nor by the backfill", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    leftoverBid(h, yes, "0.49");
    h.take(yes, "sell", "0.49", "10"); // fills the earlier run's bid; its frame arrives before start
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start(); // positions hold the 10; the start-up reconcile reads the trade too
    await h.run();
    expect(h.fills).toHaveLength(1);
    expect(h.fills[0]?.tsMs).toBe(h.eventsOf("started")[0]?.atMs);
    expect(h.eventsOf("fill")).toEqual([]);
    expect(h.engine.positionOf(yes)).toBe(0n);
    expect(h.eventsOf("reconcile")[0]?.summary.backfilled).toBe(0);
  });

  it("a fill that comes after the positions answer is applied", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
    h.take(yes, "sell", "0.47", "104"); // the crowd's 100, then 4 of our bid: still the same millisecond
    await h.run();
    expect(h.fills.map((f) => f.tsMs)).toEqual([h.clock.now()]);
    expect(h.eventsOf("fill").map((e) => e.source)).toEqual(["stream"]);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
  });

  it("a fill that came before the answer but was lost on the socket is applied by the backfill (left to the position check)", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    leftoverBid(h, yes, "0.49");
    h.dropFills = true;
    h.take(yes, "sell", "0.49", "10");
    h.dropFills = false;
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    // Nothing tells the engine it came before the read: stamped in the baseline's millisecond, it is
    // applied; the check sees a 10-share drift, corrected once seen twice.
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    await h.run(30_000);
    expect(h.engine.positionOf(yes)).toBe(0n);
  });
});
