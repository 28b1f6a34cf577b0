import { describe, expect, it } from "vitest";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

/*
 * CrowdMirror rule 6: a recorded frame that crosses the book — an ask appears at the price of a bid
 * level the recording still shows (an aggressor's rest one frame before the bid's decrease, a
 * taker's order shown before its fills, a stale level; live books do cross, see
 * mm_book_crossed_total) — is held outside the venue until the market's liquidity it crosses is
 * gone. Placed at once, it met the market's own bid first (self-trade prevention cancelled that
 * level whole) and then filled the bot's bid that had 100 of recorded size ahead of it.
 */
describe("CrowdMirror: a crossed recorded frame never fills the bot ahead of its queue", () => {
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

  it("the crossing ask enters once the bid it crossed is gone, filling the bot then (the aggressor's rest)", () => {
    const w = setup();
    w.delta(["sell", "0.50", "30"]);
    expect(w.mirror.counters.heldCrossed).toBe(1);
    expect(w.mirror.inVenue(T, "sell", u("0.50"))).toBe(false);
    w.delta(["buy", "0.50", "0"]); // the aggressor went through all 100: its rest meets the bot now
    expect(fillsOf(w)).toEqual(["maker buy 500000 10000000"]);
    expect(w.mirror.crowdSize(T, "sell", u("0.50"))).toBe(u("20"));
  });

  it("a taker's order shown before its fills never fills the bot, and the trade moves the queue once", () => {
    const w = setup();
    const id = w.venue.openOrders(BOT)[0]?.id ?? "";
    w.delta(["sell", "0.50", "30"]);
    w.delta(["buy", "0.50", "70"], ["sell", "0.50", "0"]); // the fills: 30 off the bid's front
    expect(fillsOf(w)).toEqual([]);
    expect(w.mirror.queue.ahead(id)).toBe(u("70"));
    expect(w.mirror.crowdSize(T, "buy", u("0.50"))).toBe(u("70"));
  });

  it("the level that was there first stays live: the bot's sell still takes the market's bid", () => {
    const w = setup();
    w.delta(["sell", "0.50", "30"]);
    w.bot("sell", "0.50", "40", "ioc");
    expect(fillsOf(w)).toEqual(["taker sell 500000 40000000"]);
  });

  it("a held level is judged again at its next change: the bot took what crossed it", () => {
    const w = world();
    w.snapshot([["0.50", "20"]], [["0.52", "100"]]);
    w.bot("buy", "0.49", "10"); // rests below the market's bid
    w.delta(["sell", "0.49", "30"]); // crosses the market's bid at 0.50: held
    expect(fillsOf(w)).toEqual([]);
    w.bot("sell", "0.50", "20", "ioc"); // the bot takes the whole bid
    w.delta(["sell", "0.49", "35"]); // nothing live crosses the ask now: it enters, filling the bot
    expect(fillsOf(w)).toEqual(["taker sell 500000 20000000", "maker buy 490000 10000000"]);
    expect(w.mirror.crowdSize(T, "sell", u("0.49"))).toBe(u("25"));
  });
});
