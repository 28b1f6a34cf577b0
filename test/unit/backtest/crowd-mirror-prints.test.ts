import { describe, expect, it } from "vitest";
import { PRINT_PAIRING_MS } from "../../../src/backtest/replay/queue-model.js";
import type { QueueModelSpec } from "../../../src/backtest/replay/queue-model-spec.js";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

const RECORDED: QueueModelSpec = { type: "conservative", trades: "recorded" };
const openId = (w: ReturnType<typeof world>) => w.venue.openOrders(BOT)[0]?.id ?? "";

describe("CrowdMirror: recorded trade prints", () => {
  it("fills a resting bot order once prints at its price got through the size ahead of it", () => {
    const w = world(0, RECORDED);
    w.snapshot([["0.49", "100"]], [["0.51", "100"]]);
    w.bot("buy", "0.49", "10");
    w.print("sell", "0.49", "60");
    expect(w.fills).toEqual([]);
    expect(w.mirror.queue.ahead(openId(w))).toBe(u("40"));
    w.print("SELL", "0.49", "48"); // 40 ahead, 8 through the bot's place (side in any case)
    expect(fillsOf(w)).toEqual(["maker buy 490000 8000000"]);
    // The market's order stepped aside for the print and is back at the recorded size.
    expect(w.mirror.crowdSize(T, "buy", u("0.49"))).toBe(u("100"));
    expect(w.venueBook()?.bids).toEqual([{ price: u("0.49"), size: u("102") }]);
    expect(w.mirror.counters).toMatchObject({
      prints: 2,
      printTrades: 1,
      printQty: u("8"),
      inferredTrades: 0,
    });
    // The book catches up: the level empties. A decrease is a cancel here, so the rest stays.
    w.delta(["buy", "0.49", "0"]);
    expect(fillsOf(w)).toHaveLength(1);
    expect(w.venueBook()?.bids).toEqual([{ price: u("0.49"), size: u("2") }]);
  });

  it("gives an order at a better price the print first, stepping the market's better levels aside", () => {
    const w = world(0, RECORDED);
    w.snapshot(
      [
        ["0.49", "100"],
        ["0.48", "50"],
      ],
      [["0.52", "100"]],
    );
    w.bot("buy", "0.50", "10"); // alone inside the spread
    w.bot("buy", "0.48", "10"); // behind 50
    // A seller swept to 0.48 before the book showed it: the print at 0.48 (60) went through
    // the bot's 0.50 bid first, which took 10 of it; the 50 left are the 50 ahead of the bot's
    // place at 0.48, so that bid stays unfilled. The market's 0.49 bid must not meet the
    // market's own IOC.
    w.print("sell", "0.48", "60");
    expect(fillsOf(w)).toEqual(["maker buy 500000 10000000"]);
    expect(w.mirror.crowdSize(T, "buy", u("0.49"))).toBe(u("100"));
    expect(w.mirror.crowdSize(T, "buy", u("0.48"))).toBe(u("50"));
    // The 0.48 level entered the venue ahead of the bot's bid there and came back after the print
    // (50 of the market's, then the bot's 10); 0.49 could meet no bot order: it never entered (rule 5).
    expect(w.venueBook()?.bids).toEqual([{ price: u("0.48"), size: u("60") }]);
    expect(w.mirror.inVenue(T, "buy", u("0.49"))).toBe(false);
  });

  it("ignores prints when trades are inferred (the default), and counts unusable ones otherwise", () => {
    const d = world();
    d.snapshot([["0.49", "10"]], [["0.51", "10"]]);
    d.bot("buy", "0.49", "5");
    d.print("sell", "0.49", "50");
    expect(d.fills).toEqual([]);
    expect(d.mirror.counters.prints).toBe(0);
    const w = world(0, RECORDED);
    w.snapshot([["0.49", "10"]], [["0.51", "10"]]);
    w.print("cross", "0.49", "1");
    w.print("buy", "0.4900001", "1"); // beyond micro-units
    expect(w.mirror.counters).toMatchObject({ prints: 0, printsIgnored: 2 });
  });

  it("auto: infers trades from touch decreases until the token prints", () => {
    const w = world(0, { type: "probabilistic", fn: "power", n: 2, trades: "auto" });
    w.snapshot([["0.49", "10"]], [["0.51", "10"]]);
    w.bot("buy", "0.49", "5");
    w.delta(["buy", "0.49", "8"]); // inferred trade of 2: 8 ahead
    w.delta(["buy", "0.49", "20"]); // 12 join behind
    w.print("buy", "0.51", "1"); // the token prints (on the ask side)
    w.delta(["buy", "0.49", "4"]); // now 16 cancelled: 8 ahead, 12 behind → front share 0.3077
    expect(w.fills).toEqual([]);
    // ahead = min(8 − 16 × 64 / (64 + 144), 4) = min(3.076923, 4)
    expect(w.mirror.queue.ahead(openId(w))).toBe(3_076_923n);
  });

  it("moves the queue once when the book change comes before the print that caused it", () => {
    // The same trade both ways round at one instant: the bot's 10 at 0.49 behind 100, a seller
    // hits 60. Before the fix the decrease (a cancel here) and the print each moved the place by
    // 60, and the bot filled 10 with 40 still ahead of it.
    const placeAfter = (printFirst: boolean, spec: QueueModelSpec) => {
      const w = world(0, spec);
      w.snapshot([["0.49", "100"]], [["0.51", "100"]]);
      w.bot("buy", "0.49", "10");
      if (printFirst) w.print("sell", "0.49", "60");
      w.delta(["buy", "0.49", "40"]);
      if (!printFirst) w.print("sell", "0.49", "60");
      return { fills: fillsOf(w), ahead: w.mirror.queue.ahead(openId(w)) };
    };
    for (const spec of [RECORDED, { type: "probabilistic", fn: "power", n: 2, trades: "auto" } as const]) {
      expect(placeAfter(true, spec)).toEqual({ fills: [], ahead: u("40") });
      expect(placeAfter(false, spec)).toEqual({ fills: [], ahead: u("40") });
    }
    // Later than PRINT_PAIRING_MS after the change, the print is another trade.
    const w = world(0, RECORDED);
    w.snapshot([["0.49", "100"]], [["0.51", "100"]]);
    w.bot("buy", "0.49", "10");
    w.delta(["buy", "0.49", "40"]);
    w.clock.advanceBy(PRINT_PAIRING_MS + 1);
    w.print("sell", "0.49", "60");
    expect(fillsOf(w)).toEqual(["maker buy 490000 10000000"]);
  });

  it("auto: the token's first print does not move the queue again for the decrease inferred as it", () => {
    const w = world(0, { type: "conservative", trades: "auto" });
    w.snapshot([["0.49", "100"]], [["0.51", "100"]]);
    w.bot("buy", "0.49", "10");
    w.delta(["buy", "0.49", "40"]); // inferred: 60 traded, 40 ahead
    w.print("sell", "0.49", "65"); // that trade's print (and 5 more, whose change is to come)
    expect(w.fills).toEqual([]);
    expect(w.mirror.queue.ahead(openId(w))).toBe(u("35"));
  });
});
