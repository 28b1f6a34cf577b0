import { describe, expect, it } from "vitest";
import { fillsOf, T, u, world } from "./support/mirror-world.js";

/*
 * CrowdMirror rule 2 through a refused placement: liquidity the bot took stays taken until the
 * level empties, also when the venue refuses the market's order for a level outside it holding less
 * than the recorded size — here the market is PAUSED when a bot order reaches the exchange, which
 * happens live in the feed-latency window before the engine hears of the pause. The refusal used to
 * drop the level's record, so it came back at the full recorded size and the bot took again, after
 * the reopen, the 100 shares it had already taken.
 */
describe("CrowdMirror: a refused placement does not give back liquidity the bot took", () => {
  it("after a pause, the bot can take only the 20 that joined the level, not the 100 it took again", () => {
    const w = world();
    w.snapshot([["0.40", "100"]], [["0.51", "100"]]);
    w.bot("buy", "0.51", "100", "ioc"); // the bot takes the whole recorded ask
    w.delta(["sell", "0.51", "120"]); // 20 join the level: the market has 20 there for the bot
    expect(w.mirror.crowdSize(T, "sell", u("0.51"))).toBe(u("20"));
    w.venue.setMarketStatus("0x01", "PAUSED");
    expect(w.bot("buy", "0.51", "5", "ioc").code).toBe("market_not_open"); // refused, as live
    expect(w.mirror.crowdSize(T, "sell", u("0.51"))).toBe(u("20"));
    w.venue.setMarketStatus("0x01", "OPEN");
    w.bot("buy", "0.51", "200", "ioc");
    expect(fillsOf(w)).toEqual(["taker buy 510000 100000000", "taker buy 510000 20000000"]);
  });
});
