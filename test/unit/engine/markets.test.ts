import { describe, expect, it } from "vitest";
import { tokenMarkets, unknownSlugs } from "../../../src/engine/markets.js";
import type { Market } from "../../../src/exchange/types.js";
import { sampleMarket } from "../../support/exchange-fixtures.js";

const cfg = {
  defaultTickSize: "0.01",
  minOrderSize: "1",
  tickSizes: { fine: "0.001" },
  minOrderSizes: { fine: "5" },
};
const market = (o: Record<string, unknown>) => sampleMarket(o) as unknown as Market;

describe("tokenMarkets", () => {
  const markets = [
    market({
      id: "m1",
      slug: "coarse",
      yesTokenId: "11",
      noTokenId: "12",
      conditionId: "0xAB",
      closesAt: "2027-01-01T00:00:00.000Z",
    }),
    market({
      id: "m2",
      slug: "fine",
      yesTokenId: "21",
      noTokenId: "22",
      status: "PAUSED",
      feeTakerBps: null,
    }),
    market({ id: "m3", slug: "undeployed", conditionId: null, yesTokenId: null, noTokenId: null }),
  ];

  it("carries a resolved record's payoutNumerators (list or map, strings or integers), and nothing else", () => {
    const read = (payoutNumerators: unknown) =>
      tokenMarkets([market({ id: "r", slug: "r", yesTokenId: "1", noTokenId: "2", payoutNumerators })], cfg, [
        "*",
      ]).map((t) => t.payouts);
    expect(read([1, 0])).toEqual([
      { "0": "1", "1": "0" },
      { "0": "1", "1": "0" },
    ]);
    expect(read({ "0": "0.5", "1": "0.5" })[1]).toEqual({ "0": "0.5", "1": "0.5" });
    expect(read(null)).toEqual([undefined, undefined]);
    expect(read(["yes", "no"])).toEqual([undefined, undefined]);
    expect("payouts" in (tokenMarkets(markets, cfg, ["coarse"])[0] ?? {})).toBe(false);
  });

  it("carries each market's slug, for log lines that name it as the operator configured it", () => {
    expect(tokenMarkets(markets, cfg, ["*"]).map((t) => t.slug)).toEqual([
      "coarse",
      "coarse",
      "fine",
      "fine",
    ]);
  });

  it("yields both outcome tokens of each selected, deployed market with configured tick and min size", () => {
    const all = tokenMarkets(markets, cfg, ["*"]);
    expect(all.map((t) => `${t.marketId}:${t.tokenId}:${t.outcome}:${t.outcomeIndex}`)).toEqual([
      "m1:11:YES:0",
      "m1:12:NO:1",
      "m2:21:YES:0",
      "m2:22:NO:1",
    ]);
    const [coarse, , fine] = all;
    expect(coarse).toMatchObject({ tickMicro: 10_000, minSizeMicro: 1_000_000n, conditionId: "0xab" });
    expect(coarse?.closesAtMs).toBe(Date.parse("2027-01-01T00:00:00.000Z"));
    expect(fine).toMatchObject({
      tickMicro: 1_000,
      minSizeMicro: 5_000_000n,
      status: "PAUSED",
      feeTakerBps: null,
    });
  });

  it("selects by slug and reports slugs the exchange does not list", () => {
    expect(tokenMarkets(markets, cfg, ["fine"]).map((t) => t.tokenId)).toEqual(["21", "22"]);
    expect(unknownSlugs(markets, ["fine", "typo", "*"])).toEqual(["typo"]);
  });
});
