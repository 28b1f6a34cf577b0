import { describe, expect, it } from "vitest";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

/*
 * CrowdMirror rule 6: a held crossing level is judged again when a bot order could meet it, not
 * only at its own next change or a decrease of the other side. Once the bot has taken (or the venue
 * cancelled) the liquidity that crossed it, the recorded level is there for the bot's next order,
 * as at the exchange; for a stale level (no further change) it otherwise never was.
 */
describe("crowd mirror: a held level whose crossing liquidity the bot took is there for the bot's next order", () => {
  for (const everyLevel of [false, true]) {
    it(`the bot's buy takes the ask once it has sold into the whole crossing bid (everyLevel ${everyLevel})`, () => {
      const w = world(0, undefined, { everyLevel });
      w.snapshot([["0.50", "20"]], [["0.52", "100"]]);
      w.delta(["sell", "0.50", "30"]); // crossed: held, the bid 0.50 × 20 was there first
      expect(w.mirror.counters.heldCrossed).toBe(1);
      w.bot("sell", "0.50", "20", "ioc"); // the bot takes the whole bid: nothing live crosses the ask now
      w.bot("buy", "0.50", "10", "ioc"); // the ask at 0.50 × 30 is the market's best: the exchange fills it
      expect(fillsOf(w)).toEqual(["taker sell 500000 20000000", "taker buy 500000 10000000"]);
      expect(w.mirror.crowdSize(T, "sell", u("0.50"))).toBe(u("20"));
    });
  }

  it("a resting bot bid the held ask crosses is filled once the bot took the crossing bid, with no further ask change", () => {
    const w = world();
    w.snapshot([["0.50", "20"]], [["0.52", "100"]]);
    w.delta(["sell", "0.50", "30"]); // held
    w.bot("sell", "0.50", "20", "ioc"); // the bot takes the whole bid
    w.bot("buy", "0.50", "10"); // GTC: at the exchange it meets the ask at 0.50 at once
    expect(fillsOf(w)).toEqual(["taker sell 500000 20000000", "taker buy 500000 10000000"]);
  });
});
