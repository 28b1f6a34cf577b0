import { describe, expect, it } from "vitest";
import type { QueueModelSpec } from "../../../src/backtest/replay/queue-model-spec.js";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { fillsOf, u, world } from "./support/mirror-world.js";

// The world's configured tick is 0.01. A recording can hold prices on a finer tick (Polymarket
// markets near 0 or 1 trade on 0.001; tokens found by the scan take the default tick 0.01). The
// bot's own quotes are on the configured tick. A trade at a price off that tick, below the bot's
// bid, is a trade that went through the bot's better bid first (QueueModel: "orders at better
// prices were traded through"); the same trade one tick lower fills the bot.
const RECORDED: QueueModelSpec = { type: "conservative", trades: "recorded" };

describe("queue: a trade at a price off the configured tick still goes through the bot's better orders", () => {
  it("prints: a sell print at 0.495 fills the bot's bid at 0.50, as one at 0.49 does", () => {
    const onTick = world(0, RECORDED);
    onTick.snapshot([["0.49", "100"]], [["0.52", "100"]]);
    onTick.bot("buy", "0.50", "10"); // alone inside the spread, nothing ahead
    onTick.print("sell", "0.49", "5");
    expect(fillsOf(onTick)).toEqual(["maker buy 500000 5000000"]);

    const w = world(0, RECORDED);
    w.snapshot([["0.49", "100"]], [["0.52", "100"]]);
    w.bot("buy", "0.50", "10");
    // The model hands the bot 5 of the print (the aggressor reached 0.495 through 0.50)...
    expect(w.venue.openOrders(BOT)).toHaveLength(1);
    w.print("sell", "0.495", "5");
    // The market's IOC goes at the first tick on the bot's side (0.50): the venue refused it at
    // the print's own price, off the tick, and the bot got nothing.
    expect(fillsOf(w)).toEqual(["maker buy 500000 5000000"]);
  });

  it("inferred: a decrease at an off-tick best bid fills the bot's bid above it, as one on the tick does", () => {
    const onTick = world(0);
    onTick.snapshot([["0.49", "100"]], [["0.52", "100"]]);
    onTick.bot("buy", "0.50", "10");
    onTick.delta(["buy", "0.49", "60"]); // a trade of 40 at the touch, through the bot's 0.50 bid
    expect(fillsOf(onTick)).toEqual(["maker buy 500000 10000000"]);

    const w = world(0);
    w.snapshot(
      [
        ["0.495", "100"],
        ["0.49", "100"],
      ],
      [["0.52", "100"]],
    );
    w.bot("buy", "0.50", "10");
    expect(w.venue.openOrders(BOT)[0]?.price).toBe(u("0.50"));
    // 0.495 is the recorded best bid: its decrease is a trade at the touch, through 0.50 first.
    // CrowdMirror.onLevel returned on an off-tick level before the queue model heard of it.
    w.delta(["buy", "0.495", "60"]);
    expect(fillsOf(w)).toEqual(["maker buy 500000 10000000"]);
  });
});
