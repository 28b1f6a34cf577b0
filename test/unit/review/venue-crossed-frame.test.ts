import { describe, expect, it } from "vitest";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { fillsOf, T, u, world } from "../backtest/support/mirror-world.js";

/**
 * Review (venue): a recorded frame that crosses the book — an ask appears at the price of a bid
 * level the recording still shows (the aggressor's rest arrives in one frame, the bid level's
 * decrease in the next; live books do cross, see mm_book_crossed_total) — is applied by rule 1 as
 * a new market order in the venue. That order meets the market's own bid first, which self-trade
 * prevention cancels whole, and then fills the bot's bid that had 100 of recorded size ahead of it.
 * A 30-share aggressor cannot reach an order with 100 ahead: the exchange could not give that fill.
 */
describe("review venue: a crossed recorded frame never fills the bot ahead of its queue", () => {
  function setup() {
    const w = world();
    w.snapshot([["0.50", "100"]], [["0.52", "100"]]);
    w.bot("buy", "0.50", "10");
    const id = w.venue.openOrders(BOT)[0]?.id ?? "";
    expect(w.mirror.queue.ahead(id)).toBe(u("100"));
    return w;
  }

  it("an ask of 30 crossing the 100 recorded ahead of the bot's bid does not fill the bot", () => {
    const w = setup();
    w.delta(["sell", "0.50", "30"]); // crossed: bid 0.50 × 100 still recorded
    expect(fillsOf(w)).toEqual([]);
  });

  it("the market's bid level is not wiped out by its own crossing ask (self-trade prevention)", () => {
    const w = setup();
    w.delta(["sell", "0.50", "30"]);
    w.delta(["buy", "0.50", "70"]); // the next frame: the bid level shows the 30 traded
    // The market's bids at 0.50 are still there to trade with (the recording shows 70).
    expect(w.mirror.crowdSize(T, "buy", u("0.50"))).toBeGreaterThan(0n);
  });
});
