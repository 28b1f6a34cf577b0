import { describe, expect, it } from "vitest";
import type { QueueModelSpec } from "../../../src/backtest/replay/queue-model-spec.js";
import { BOT } from "../../../src/backtest/sim/actors.js";
import { fillsOf, u, world } from "./support/mirror-world.js";

const RECORDED: QueueModelSpec = { type: "conservative", trades: "recorded" };

const filledAt = (w: ReturnType<typeof world>, orderId: string): bigint =>
  w.fills.filter((f) => f.orderId === orderId).reduce((a, f) => a + f.quantity, 0n);

/**
 * What one trade fills of several bot orders on a side. The mirror sends the market's IOC for
 * exactly what the queue model gives the bot's orders in the venue's priority (better price, then
 * arrival), so no order is filled with volume that went past another order's place. Found by
 * review: the mirror used to send the largest amount past any order's place, and the venue handed
 * it out to orders that still had recorded size ahead of them.
 */
describe("CrowdMirror: a trade's volume goes to the bot's orders in queue order", () => {
  it("prints: a bid at a better price takes its share of the print before the deeper bid's queue", () => {
    const w = world(0, RECORDED);
    w.snapshot(
      [
        ["0.49", "100"],
        ["0.48", "50"],
      ],
      [["0.52", "100"]],
    );
    w.bot("buy", "0.50", "10"); // alone inside the spread
    w.bot("buy", "0.48", "30"); // behind 50 recorded shares
    const deep = w.venue.openOrders(BOT).find((o) => o.price === u("0.48"))?.id ?? "";
    expect(w.mirror.queue.ahead(deep)).toBe(u("50"));
    // A print of 60 at 0.48: the 0.50 bid takes 10 of it, the other 50 are the 50 ahead of the
    // 0.48 bid, which is not reached.
    w.print("sell", "0.48", "60");
    expect(fillsOf(w)).toEqual(["maker buy 500000 10000000"]);
    expect(filledAt(w, deep)).toBe(0n);
    // The next print at 0.48 reaches it: nothing is ahead any more.
    w.print("sell", "0.48", "12");
    expect(filledAt(w, deep)).toBe(u("12"));
  });

  it("inferred: a touch decrease fills the earlier order, not a later one with 100 still ahead", () => {
    const w = world();
    w.snapshot([["0.49", "100"]], [["0.52", "100"]]);
    w.bot("buy", "0.50", "5"); // a new best bid: nothing ahead of it
    w.delta(["buy", "0.50", "100"]); // 100 join behind it
    w.bot("buy", "0.50", "30"); // joins behind the 100 recorded shares
    const [first, second] = w.venue.openOrders(BOT).map((o) => o.id) as [string, string];
    expect(w.mirror.queue.ahead(first)).toBe(0n);
    expect(w.mirror.queue.ahead(second)).toBe(u("100"));
    // A trade of 50 at the touch: 50 past the first order's place, none past the second's.
    w.delta(["buy", "0.50", "50"]);
    expect(filledAt(w, first)).toBe(u("5"));
    expect(filledAt(w, second)).toBe(0n);
    expect(w.mirror.queue.ahead(second)).toBe(u("50"));
    // The other 50 trade: the second order is at the front now, still unfilled.
    w.delta(["buy", "0.50", "0"]);
    expect(filledAt(w, second)).toBe(0n);
    expect(w.mirror.queue.ahead(second)).toBe(0n);
    // 20 join behind it and trade: all 20 go past its place.
    w.delta(["buy", "0.50", "20"]);
    w.delta(["buy", "0.50", "0"]);
    expect(filledAt(w, second)).toBe(u("20"));
  });

  it("inferred: a trade at the touch goes through a bot bid above it first, with or without a bot order at the touch", () => {
    const alone = world();
    alone.snapshot([["0.49", "100"]], [["0.52", "100"]]);
    alone.bot("buy", "0.50", "10"); // inside the spread, no bot order at the touch
    alone.delta(["buy", "0.49", "96"]); // a seller took 4 at 0.49: it would have sold to 0.50 first
    expect(fillsOf(alone)).toEqual(["maker buy 500000 4000000"]);

    const both = world();
    both.snapshot([["0.49", "100"]], [["0.52", "100"]]);
    both.bot("buy", "0.50", "10");
    both.bot("buy", "0.49", "10"); // behind the 100 at the touch
    both.delta(["buy", "0.49", "96"]);
    // The same 4, and the touch order, still behind 96, gets nothing.
    expect(fillsOf(both)).toEqual(["maker buy 500000 4000000"]);
  });
});
