import { describe, expect, it } from "vitest";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { takerFeeWei } from "../../../src/core/fees.js";
import { mulberry32 } from "../../support/mulberry32.js";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

/** One random level change: bids on 0.40–0.49, asks on 0.51–0.60 (never crossed), a fifth emptying. */
function randomDelta(w: ReturnType<typeof world>, rnd: () => number): void {
  const bid = rnd() < 0.5;
  const ticks = bid ? 40 + Math.floor(rnd() * 10) : 51 + Math.floor(rnd() * 10);
  const size = rnd() < 0.2 ? "0" : (1 + Math.floor(rnd() * 5000) / 100).toString();
  w.delta([bid ? "buy" : "sell", (ticks / 100).toFixed(2), size]);
}

describe("CrowdMirror: the recorded book inside the venue", () => {
  it("keeps the venue's book equal to the recording at every step when the bot is away (every level mirrored)", () => {
    const w = world(0, undefined, { everyLevel: true });
    const rnd = mulberry32(3);
    w.snapshot([["0.40", "10"]], [["0.60", "10"]]);
    for (let i = 0; i < 1500; i++) {
      randomDelta(w, rnd);
      const venue = w.venueBook();
      const recorded = w.books.book(T);
      const wire = (l: readonly { price: bigint; size: bigint }[]) => l.map((x) => [x.price, x.size]);
      expect(wire(venue?.bids ?? [])).toEqual(recorded.top("bid", 100).map((l) => [BigInt(l.price), l.size]));
      expect(wire(venue?.asks ?? [])).toEqual(recorded.top("ask", 100).map((l) => [BigInt(l.price), l.size]));
    }
    expect(w.mirror.counters.amended).toBeGreaterThan(0);
    expect(w.mirror.counters.cancelled).toBeGreaterThan(0);
  });

  it("leaves the venue empty while no bot order could meet the market, at the recorded sizes (rule 5)", () => {
    const w = world();
    const rnd = mulberry32(3);
    w.snapshot([["0.40", "10"]], [["0.60", "10"]]);
    for (let i = 0; i < 500; i++) randomDelta(w, rnd);
    expect(w.venueBook()?.bids ?? []).toEqual([]);
    expect(w.venueBook()?.asks ?? []).toEqual([]);
    expect(w.mirror.counters).toMatchObject({ placed: 0, amended: 0, cancelled: 0 });
    const recorded = w.books.book(T);
    for (const l of recorded.top("ask", 100))
      expect(w.mirror.crowdSize(T, "sell", BigInt(l.price))).toBe(l.size);
    // A bid through the best ask brings the asks it crosses (and only those) in before it matches.
    const best = recorded.bestAsk();
    if (best === undefined) throw new Error("the recording left no ask");
    const next = recorded.asks.at(1);
    w.bot("buy", (best.price / 1e6).toFixed(2), "0.5", "gtc");
    expect(fillsOf(w)).toEqual([`taker buy ${best.price} 500000`]);
    expect(w.mirror.inVenue(T, "sell", BigInt(best.price))).toBe(true);
    if (next !== undefined) expect(w.mirror.inVenue(T, "sell", BigInt(next.price))).toBe(false);
  });

  it("fills a resting bot order only once the decreases at the touch got through the size ahead of it", () => {
    const w = world();
    w.snapshot([["0.49", "100"]], [["0.51", "100"]]);
    w.bot("buy", "0.49", "10");
    w.delta(["buy", "0.49", "150"]); // 50 join behind the bot
    w.delta(["buy", "0.49", "90"]); // 60 of the 100 ahead leave
    expect(w.fills).toEqual([]);
    expect(w.mirror.queue.ahead(w.venue.openOrders(BOT)[0]?.id ?? "")).toBe(u("40"));
    w.delta(["buy", "0.49", "42"]); // 48: 40 ahead, then 8 through the bot's place
    expect(fillsOf(w)).toEqual(["maker buy 490000 8000000"]);
    expect(w.mirror.counters.inferredTrades).toBe(1);
    expect(w.mirror.crowdSize(T, "buy", u("0.49"))).toBe(u("42"));
    // The market's 42 wait outside the venue (no bot order could meet them: rule 5); the bot's 2 rest.
    expect(w.mirror.inVenue(T, "buy", u("0.49"))).toBe(false);
    expect(w.venueBook()?.bids).toEqual([{ price: u("0.49"), size: u("2") }]);
    w.delta(["buy", "0.49", "0"]); // the level empties: the rest of the bot's order trades
    expect(fillsOf(w)).toEqual(["maker buy 490000 8000000", "maker buy 490000 2000000"]);
    expect(w.venueBook()?.bids).toEqual([]);
  });

  it("treats a decrease away from the touch as cancels: the queue shortens, nothing fills", () => {
    const w = world();
    w.snapshot(
      [
        ["0.49", "100"],
        ["0.48", "50"],
      ],
      [["0.51", "100"]],
    );
    w.bot("buy", "0.48", "10");
    w.delta(["buy", "0.48", "0"]);
    expect(w.fills).toEqual([]);
    expect(w.mirror.queue.ahead(w.venue.openOrders(BOT)[0]?.id ?? "")).toBe(0n);
    w.delta(["buy", "0.49", "0"]); // 0.48 was not the touch when 0.49 went: still nothing
    expect(w.fills).toEqual([]);
  });

  it("fills the bot as maker at its own price when the recorded other side moves through its quote", () => {
    const w = world();
    w.snapshot([["0.48", "100"]], [["0.52", "100"]]);
    w.bot("buy", "0.50", "10");
    w.delta(["sell", "0.49", "25"]);
    expect(fillsOf(w)).toEqual(["maker buy 500000 10000000"]);
    expect(w.mirror.crowdSize(T, "sell", u("0.49"))).toBe(u("15"));
    w.delta(["sell", "0.49", "0"]);
    expect(w.mirror.crowdSize(T, "sell", u("0.49"))).toBe(0n);
  });

  it("fills an aggressive bot order as taker at the book's prices, with the spec's fee, and never twice", () => {
    const w = world(100);
    w.snapshot(
      [["0.48", "100"]],
      [
        ["0.52", "20"],
        ["0.53", "50"],
      ],
    );
    const r = w.bot("buy", "0.53", "30", "ioc");
    expect(r.status).toBe("FILLED");
    expect(fillsOf(w)).toEqual(["taker buy 520000 20000000", "taker buy 530000 10000000"]);
    expect(w.fills.map((f) => f.fee)).toEqual([
      { asset: "shares", amount: takerFeeWei("buy", 100, u("0.52"), u("20")) },
      { asset: "shares", amount: takerFeeWei("buy", 100, u("0.53"), u("10")) },
    ]);
    // The recording still shows 20 at 0.52, but what the bot took stays taken.
    expect(w.bot("buy", "0.52", "5", "ioc")).toMatchObject({ status: "REJECTED", code: "matcher_error" });
    w.delta(["sell", "0.52", "0"]);
    w.delta(["sell", "0.52", "7"]);
    expect(w.mirror.crowdSize(T, "sell", u("0.52"))).toBe(u("7"));
  });

  it("counts recorded prices the venue refuses (off the configured tick), and never trades them", () => {
    const w = world();
    w.snapshot([["0.485", "10"]], [["0.51", "10"]]);
    expect(Object.fromEntries(w.mirror.counters.rejected)).toEqual({ invalid_amounts: 1 });
    w.delta(["buy", "0.485", "12"]); // grows: not a new level, not counted again
    expect(Object.fromEntries(w.mirror.counters.rejected)).toEqual({ invalid_amounts: 1 });
    expect(w.bot("sell", "0.48", "5", "ioc")).toMatchObject({ status: "REJECTED" }); // nothing to meet
    expect(w.venueBook()?.bids).toEqual([]);
  });
});
