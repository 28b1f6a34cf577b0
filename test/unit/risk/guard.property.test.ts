import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import { mulWeiCeil } from "../../../src/core/wei.js";
import type { RiskTokenContext } from "../../../src/risk/guard.js";
import { guardFor, scenarioArb } from "./arbitraries.js";
import { market } from "./helpers.js";

const abs = (v: bigint) => (v < 0n ? -v : v);

describe("RiskGuard.filter, whatever the desired quotes and state", () => {
  const seen = {
    gated: 0,
    allowed: 0,
    softReduce: 0,
    hardBlocked: 0,
    hardClipped: 0,
    shares: 0,
    crossesBook: 0,
    ownCrossed: 0,
  };

  it("never lets through a quote that breaks a gate, the band, the size, the notional or the caps", () => {
    fc.assert(
      fc.property(scenarioArb, ({ s, desired, touch }) => {
        const { cfg } = s;
        const m = market({ tickMicro: s.tick, minSizeMicro: s.minSize, status: s.status });
        const a = abs(s.position);
        const mGross = a + s.marketOthers;
        const tGross = mGross + s.totalOthers;
        const ctx: RiskTokenContext = {
          market: m,
          book: { status: s.book as "synced", crossed: s.crossed },
          inventory: {
            positionMicro: s.position,
            marketGrossMicro: mGross,
            totalGrossMicro: tGross,
            heldMicro: s.held,
          },
          ...touch,
        };
        const { allowed, decisions } = guardFor(cfg, s).filter(ctx, desired, 1);

        const gated = s.kill || s.frozen || s.halt || s.status !== "OPEN" || s.book !== "synced" || s.crossed;
        if (gated) {
          seen.gated++;
          expect(allowed).toEqual([]);
          expect(decisions).toHaveLength(1);
          expect(decisions[0]).toMatchObject({ action: "cancel", scope: "token", tokenId: m.tokenId });
          return;
        }

        // Every allowed quote is a desired one (same side, level, price), at most as large, in order.
        let j = 0;
        for (const q of allowed) {
          while (j < desired.length && !sameSlot(desired[j] as DesiredQuote, q)) j++;
          expect(j).toBeLessThan(desired.length);
          j++;
        }
        // Every desired quote not passed unchanged is explained by a decision.
        for (const d of desired) {
          if (allowed.some((q) => q === d)) continue;
          expect(decisions.some((x) => x.side === d.side && x.level === d.level)).toBe(true);
        }

        const min = s.minSize > 1n ? s.minSize : 1n;
        for (const q of allowed) {
          expect(Number.isSafeInteger(q.priceMicro) && q.priceMicro % s.tick === 0).toBe(true);
          expect(q.priceMicro >= s.tick && q.priceMicro <= 1_000_000 - s.tick).toBe(true);
          expect(q.level >= 0).toBe(true);
          expect(q.sizeMicro >= min && q.sizeMicro <= cfg.order.maxSizeMicro).toBe(true);
          expect(mulWeiCeil(BigInt(q.priceMicro), q.sizeMicro) <= cfg.order.maxNotionalMicro).toBe(true);
          // Never through the touch of the book the strategy priced from.
          if (q.side === "buy")
            expect(q.priceMicro < (touch?.bestAskMicro ?? Number.POSITIVE_INFINITY)).toBe(true);
          else expect(q.priceMicro > (touch?.bestBidMicro ?? Number.NEGATIVE_INFINITY)).toBe(true);
        }
        // Own bids below own asks.
        const bidTop = Math.max(...allowed.filter((q) => q.side === "buy").map((q) => q.priceMicro));
        const askBottom = Math.min(...allowed.filter((q) => q.side === "sell").map((q) => q.priceMicro));
        expect(bidTop < askBottom).toBe(true);

        if (allowed.length > 0) seen.allowed++;
        for (const d of decisions) {
          if (d.reason === "soft_cap_reduce_only") seen.softReduce++;
          if (d.reason === "hard_cap_side_blocked") seen.hardBlocked++;
          if (d.reason === "hard_cap_size_clipped") seen.hardClipped++;
          if (d.reason === "insufficient_shares") seen.shares++;
          if (d.reason === "price_crosses_book") seen.crossesBook++;
          if (d.reason === "own_quotes_crossed") seen.ownCrossed++;
        }
        const inv = cfg.inventory;
        const buys = sum(allowed, "buy");
        const sells = sum(allowed, "sell");
        // No naked short: every ask resting at once can be delivered from the shares held.
        expect(sells <= s.held).toBe(true);
        // Worst case, a whole side fills: either |position| shrinks, or both grosses stay within their hard caps.
        for (const after of [s.position + buys, s.position - sells]) {
          if (abs(after) <= a) continue;
          expect(mGross - a + abs(after) <= inv.perMarket.hardMicro).toBe(true);
          expect(tGross - a + abs(after) <= inv.total.hardMicro).toBe(true);
        }
        // Soft cap reached: reduce-only, never past flat.
        if (mGross >= inv.perMarket.softMicro || tGross >= inv.total.softMicro) {
          if (buys > 0n) expect(s.position < 0n && s.position + buys <= 0n).toBe(true);
          if (sells > 0n) expect(s.position > 0n && s.position - sells >= 0n).toBe(true);
        }
        // Hard cap reached: no quote at all on the side that increases |position|.
        if (mGross >= inv.perMarket.hardMicro || tGross >= inv.total.hardMicro) {
          if (s.position >= 0n) expect(buys).toBe(0n);
          if (s.position <= 0n) expect(sells).toBe(0n);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("exercised every branch of interest (the property above is not vacuous)", () => {
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(20);
  });
});

/** q is d, possibly made smaller. */
function sameSlot(d: DesiredQuote, q: DesiredQuote): boolean {
  return (
    d.side === q.side && d.level === q.level && d.priceMicro === q.priceMicro && q.sizeMicro <= d.sizeMicro
  );
}

function sum(qs: readonly DesiredQuote[], side: "buy" | "sell"): bigint {
  return qs.filter((q) => q.side === side).reduce((acc, q) => acc + q.sizeMicro, 0n);
}
