import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import { Harness } from "./support/harness.js";

/*
 * A strategy returning 2,000 bids for a token (a ladder loop gone wrong) had them all judged and
 * placed until the inventory's hard cap clipped the total (200 orders of 10 shares on the default
 * 2,000-share cap), each an order through the rate budget, and every rung a decision logged on its
 * own. risk.order.maxLevels keeps the 10 nearest the touch; the excess is one decision per side.
 */
describe("engine: a strategy asking for thousands of levels", () => {
  it("places risk.order.maxLevels per side, logs one invalid_quote per side", async () => {
    const n = 2_000;
    const huge: DesiredQuote[] = [];
    for (let i = 0; i < n; i++) {
      huge.push({
        side: "buy",
        level: i,
        priceMicro: 390_000 - 10_000 * Math.floor(i / 50),
        sizeMicro: 10_000_000n,
      });
    }
    huge.push({ side: "sell", level: 0, priceMicro: 610_000, sizeMicro: 10_000_000n });
    const s: ConfiguredStrategy = { name: "ladder", params: {}, quote: () => huge };
    const h = new Harness({ configured: s });
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.40", "0.60");
    await h.engine.start();
    await h.run(60_000);
    const bids = h.botQuotes(yes).filter((x) => x.startsWith("buy"));
    expect(bids).toHaveLength(10);
    expect(bids.every((b) => b === "buy 0.39 10")).toBe(true);
    expect(h.botQuotes(yes).filter((x) => x.startsWith("sell"))).toEqual(["sell 0.61 10"]);
    const invalid = h.logs.records().filter((r) => r.reason === "invalid_quote" && r.tokenId === yes);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatchObject({
      side: "buy",
      quoteLevel: 10,
      levelCap: 10,
      quotes: 2000,
      dropped: 1990,
    });
  });
});
