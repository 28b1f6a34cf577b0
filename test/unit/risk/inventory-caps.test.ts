import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { parseRiskConfig } from "../../../src/risk/config.js";
import type { RiskDecision } from "../../../src/risk/decision.js";
import { applyInventoryCaps, sideLimits } from "../../../src/risk/inventory-caps.js";
import { gridQuoteArb } from "./arbitraries.js";
import { exposure, market, q, SMALL_RISK_SETTINGS, sh, smallConfig } from "./helpers.js";

/** Per market soft 100 / hard 200 shares, total soft 500 / hard 1000; minimum order 5 shares. */
const caps = smallConfig().inventory;
const MIN = sh(5);

describe("sideLimits (hand-computed)", () => {
  it.each([
    // name, [position, market gross, total gross], [buy cap, reason], [sell cap, reason], reduce-only
    [
      "flat: either side up to the per-market hard cap",
      [0],
      [200, "hard_cap_size_clipped"],
      [200, "hard_cap_size_clipped"],
      false,
    ],
    [
      "long 60: buys to 200, sells through flat to short 200",
      [60],
      [140, "hard_cap_size_clipped"],
      [260, "hard_cap_size_clipped"],
      false,
    ],
    [
      "short 80: the mirror image",
      [-80],
      [280, "hard_cap_size_clipped"],
      [120, "hard_cap_size_clipped"],
      false,
    ],
    [
      "market gross 110 ≥ soft 100: reduce-only, sells at most the 60 held",
      [60, 110],
      [0, "soft_cap_reduce_only"],
      [60, "soft_cap_reduce_only"],
      true,
    ],
    [
      "long 200 = hard: the buy side is blocked",
      [200],
      [0, "hard_cap_side_blocked"],
      [200, "soft_cap_reduce_only"],
      true,
    ],
    [
      "long 196: room for 4 < minimum 5, blocked",
      [196],
      [0, "hard_cap_side_blocked"],
      [196, "soft_cap_reduce_only"],
      true,
    ],
    [
      "total gross 500 ≥ total soft, flat token: no side reduces",
      [0, 0, 500],
      [0, "soft_cap_reduce_only"],
      [0, "soft_cap_reduce_only"],
      true,
    ],
    [
      "total 995: room 1000 − 985 = 15 → buys 5 (soft wins), sells 10 held",
      [10, 10, 995],
      [0, "soft_cap_reduce_only"],
      [10, "soft_cap_reduce_only"],
      true,
    ],
    [
      "others already past the total hard cap, flat: both sides blocked",
      [0, 0, 1200],
      [0, "hard_cap_side_blocked"],
      [0, "hard_cap_side_blocked"],
      true,
    ],
    [
      "others past the total hard cap, short 30: only buying back 30",
      [-30, 30, 1230],
      [30, "soft_cap_reduce_only"],
      [0, "hard_cap_side_blocked"],
      true,
    ],
    [
      "market gross below |position| is read as |position|",
      [50, 0, 0],
      [150, "hard_cap_size_clipped"],
      [250, "hard_cap_size_clipped"],
      false,
    ],
  ])("%s", (_name, exp, buy, sell, reduceOnly) => {
    const [p = 0, m, t] = exp as number[];
    const limits = sideLimits(exposure(p, m, t), caps, MIN);
    expect(limits).toEqual({
      buy: { capMicro: sh(buy[0] as number), reason: buy[1] },
      sell: { capMicro: sh(sell[0] as number), reason: sell[1] },
      reduceOnly,
    });
  });

  it.each([
    // name, [position, market gross, total gross, held], sell limit
    ["holding below the hard room binds the sells", [0, 0, 0, 120], [120, "insufficient_shares"]],
    ["holding below the minimum: no sell at all", [0, 0, 0, "4.5"], [0, "insufficient_shares"]],
    ["holding above the hard room: the cap binds", [0, 0, 0, 500], [200, "hard_cap_size_clipped"]],
    ["reduce-only long 60 holding 70: the 60 reduce binds", [60, 110, 110, 70], [60, "soft_cap_reduce_only"]],
    ["short 30 of a 40 holding: 10 left to sell", [-30, 30, 30, 10], [10, "insufficient_shares"]],
  ])("shares held: %s (the buy side is untouched)", (_name, exp, sell) => {
    const [p, m, t, held] = exp as [number, number, number, number | string];
    const withHeld = sideLimits(exposure(p, m, t, held), caps, MIN);
    const ample = sideLimits(exposure(p, m, t), caps, MIN);
    expect(withHeld.sell).toEqual({ capMicro: sh(sell[0] as number), reason: sell[1] });
    expect(withHeld.buy).toEqual(ample.buy);
    expect(withHeld.reduceOnly).toBe(ample.reduceOnly);
  });

  it("soft = hard: below the cap the increasing side is clipped to the room left, not blocked", () => {
    const eq = parseRiskConfig({
      ...SMALL_RISK_SETTINGS,
      inventory: { perMarket: { soft: "200", hard: "200" } },
    });
    const limits = sideLimits(exposure(150), eq.inventory, MIN);
    expect(limits.buy).toEqual({ capMicro: sh(50), reason: "hard_cap_size_clipped" });
    expect(limits.sell).toEqual({ capMicro: sh(350), reason: "hard_cap_size_clipped" });
  });
});

function apply(quotes: DesiredQuote[], p: number, m?: number, t?: number) {
  const decisions: RiskDecision[] = [];
  const allowed = applyInventoryCaps(quotes, exposure(p, m, t), caps, market(), decisions);
  return {
    allowed: allowed.map((x) => `${x.side}@${x.priceMicro / 1e6}#${x.level}:${Number(x.sizeMicro) / 1e6}`),
    decisions: decisions.map((d) => `${d.action} ${d.reason} ${d.side}#${d.level}`),
  };
}

describe("applyInventoryCaps", () => {
  it("fills levels nearest first and clips the one that overflows (long 60: buy room 140)", () => {
    const bids = [q("buy", "0.50", 50, 0), q("buy", "0.49", 50, 1), q("buy", "0.48", 50, 2)];
    expect(apply(bids, 60)).toEqual({
      allowed: ["buy@0.5#0:50", "buy@0.49#1:50", "buy@0.48#2:40"],
      decisions: ["clip hard_cap_size_clipped buy#2"],
    });
  });

  it("drops a level when what is left is below the minimum", () => {
    const bids = [
      q("buy", "0.50", 50, 0),
      q("buy", "0.49", 50, 1),
      q("buy", "0.48", 38, 2),
      q("buy", "0.47", 50, 3),
    ];
    expect(apply(bids, 60).decisions).toEqual(["drop hard_cap_size_clipped buy#3"]);
  });

  it("ranks by level, then by the more aggressive price, and keeps the input order", () => {
    const bids = [
      q("buy", "0.45", 60, 2),
      q("buy", "0.50", 60, 0),
      q("buy", "0.52", 60, 0),
      q("buy", "0.47", 60, 1),
    ];
    expect(apply(bids, 60)).toEqual({
      allowed: ["buy@0.5#0:60", "buy@0.52#0:60", "buy@0.47#1:20"],
      decisions: ["clip hard_cap_size_clipped buy#1", "drop hard_cap_size_clipped buy#2"],
    });
  });

  it("reduce-only: drops every buy, fits the sells into the 60 held", () => {
    const quotes = [
      q("buy", "0.50", 20, 0),
      q("sell", "0.52", 40, 0),
      q("sell", "0.53", 40, 1),
      q("buy", "0.49", 20, 1),
    ];
    expect(apply(quotes, 60, 110)).toEqual({
      allowed: ["sell@0.52#0:40", "sell@0.53#1:20"],
      decisions: [
        "drop soft_cap_reduce_only buy#0",
        "drop soft_cap_reduce_only buy#1",
        "clip soft_cap_reduce_only sell#1",
      ],
    });
  });

  it("at the hard cap the increasing side gets nothing, the other side is untouched below its cap", () => {
    const quotes = [q("buy", "0.50", 10), q("sell", "0.52", 10)];
    expect(apply(quotes, 200)).toEqual({
      allowed: ["sell@0.52#0:10"],
      decisions: ["drop hard_cap_side_blocked buy#0"],
    });
  });

  it("passes everything when nothing binds", () => {
    const quotes = [q("buy", "0.50", 50), q("sell", "0.52", 50)];
    expect(apply(quotes, 0)).toEqual({ allowed: ["buy@0.5#0:50", "sell@0.52#0:50"], decisions: [] });
  });
});

// The first version of applyInventoryCaps, kept as the oracle for the closure-free rewrite (an
// insertion sort for the priority, helper functions for the limits): same survivors, same order,
// same decisions.
function referenceCaps(
  quotes: readonly DesiredQuote[],
  exp: ReturnType<typeof exposure>,
  min: bigint,
): { kept: DesiredQuote[]; decisions: string[] } {
  const limits = sideLimits(exp, caps, min);
  const kept: (DesiredQuote | undefined)[] = new Array(quotes.length);
  const decisions: string[] = [];
  for (const side of ["buy", "sell"] as const) {
    const { capMicro, reason } = limits[side];
    let left = capMicro;
    const dir = side === "buy" ? -1 : 1;
    const idx: number[] = [];
    quotes.forEach((x, i) => {
      if (x.side === side) idx.push(i);
    });
    const at = (i: number) => quotes[i] as DesiredQuote;
    idx.sort((i, j) => at(i).level - at(j).level || dir * (at(i).priceMicro - at(j).priceMicro) || i - j);
    for (const i of idx) {
      const x = at(i);
      if (x.sizeMicro <= left) {
        kept[i] = x;
        left -= x.sizeMicro;
      } else if (left >= min) {
        decisions.push(`${reason} clip ${i} ${left}`);
        kept[i] = { ...x, sizeMicro: left };
        left = 0n;
      } else {
        decisions.push(`${reason} drop ${i}`);
      }
    }
  }
  return { kept: kept.filter((x): x is DesiredQuote => x !== undefined), decisions };
}

describe("applyInventoryCaps against its first version (property)", () => {
  it("keeps the same quotes in the same order with the same decisions", () => {
    fc.assert(
      fc.property(
        fc.array(gridQuoteArb, { maxLength: 12 }),
        fc.integer({ min: -300, max: 300 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 1200 }),
        (quotes, position, mGross, tGross) => {
          const exp = exposure(position, mGross, tGross);
          const decisions: RiskDecision[] = [];
          const got = applyInventoryCaps(quotes, exp, caps, market({ minSizeMicro: MIN }), decisions);
          const want = referenceCaps(quotes, exp, MIN);
          expect(got).toEqual(want.kept);
          expect(decisions.map((d) => `${d.reason} ${d.action}`)).toEqual(
            want.decisions.map((d) => d.split(" ").slice(0, 2).join(" ")),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
