import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import { BOT, Harness } from "./support/harness.js";

/**
 * README ("Logging"): "A market's `market_not_open` is logged once per market (by its event, or by
 * the first of its tokens), and its end once." The end is only written by the token that owns the
 * gate when ITS standing empties. When the owner comes back from the gate with any other standing
 * decision (here `insufficient_shares`: no shares to sell, a routine standing), the owner writes no
 * end, and the other tokens' ends are at debug: nothing at info says the market reopened. Before this
 * session the other token's `risk: cleared` was at info.
 */
describe("a market gate's end when its owner comes back with another standing decision", () => {
  it("logs the end of a paused market at info once it reopens", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    // The bot holds NO shares but no YES shares: YES's ask is dropped (insufficient_shares), NO is free.
    h.venue.debit(BOT, yes, toWei("5000", "shares"));
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    const info = () => h.logs.records().filter((r) => Number(r.level) >= 30);
    // (any level: a quote-scope line's `level` field is the quote's ladder level, see engine7-log-level)
    expect(h.logs.records().some((r) => r.msg === "risk: insufficient_shares" && r.tokenId === yes)).toBe(
      true,
    );

    h.venue.setMarketStatus("m1", "PAUSED");
    await h.run();
    expect(info().some((r) => r.msg === "risk: market_not_open" && r.marketId === "m1")).toBe(true);
    const from = info().length;

    h.venue.setMarketStatus("m1", "OPEN");
    await h.run();
    expect(h.botQuotes(yes)).toEqual(["buy 0.47 10"]); // quoting again: the gate is over
    const after = info().slice(from);
    // The market's end, at info, once (the owner's "risk: cleared" carries the marketId).
    expect(after.filter((r) => r.msg === "risk: cleared" && r.marketId === "m1")).toHaveLength(1);
  });
});
