import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { RiskDecision } from "../../../src/risk/decision.js";
import { type CommittedSize, fitInFlight } from "../../../src/risk/in-flight.js";
import { sideLimits } from "../../../src/risk/inventory-caps.js";
import { gridQuoteArb } from "./arbitraries.js";
import { exposure, market, q, sh, smallConfig } from "./helpers.js";

/** Per market hard 200 (soft 100), minimum order 5 shares. */
const caps = smallConfig().inventory;
const MIN = sh(5);

function fitSides(places: DesiredQuote[], committed: CommittedSize, p = 0, held?: number) {
  const limits = sideLimits(exposure(p, undefined, undefined, held), caps, MIN);
  const decisions: RiskDecision[] = [];
  const out = fitInFlight(places, committed, limits, market(), decisions);
  return {
    out: out.map((x) => (x === undefined ? "held" : `${x.side}#${x.level}:${Number(x.sizeMicro) / 1e6}`)),
    decisions: decisions.map(
      (d) => `${d.action} ${d.reason} ${d.side}#${d.level} ${JSON.stringify(d.detail)}`,
    ),
  };
}

describe("fitInFlight: new placements net of the orders still live on their side", () => {
  it("passes placements that fit beside the committed orders, and says nothing", () => {
    expect(fitSides([q("buy", "0.40", 50), q("sell", "0.60", 50)], { buy: sh(150), sell: sh(150) })).toEqual({
      out: ["buy#0:50", "sell#0:50"],
      decisions: [],
    });
  });

  it("clips a placement to what the committed orders leave, when that is at least the minimum", () => {
    // Flat, hard 200: a bid of 195 being cancelled leaves 5 for its replacement.
    expect(fitSides([q("buy", "0.41", 50)], { buy: sh(195), sell: 0n })).toEqual({
      out: ["buy#0:5"],
      decisions: [
        'clip in_flight_clipped buy#0 {"price":"0.41","size":"50","limit":"200","committed":"195","to":"5"}',
      ],
    });
  });

  it("holds a placement back when less than the minimum is left", () => {
    expect(fitSides([q("sell", "0.59", 50)], { buy: 0n, sell: sh("196.5") })).toEqual({
      out: ["held"],
      decisions: [
        'drop in_flight_held sell#0 {"price":"0.59","size":"50","limit":"200","committed":"196.5"}',
      ],
    });
  });

  it("gives the room to the nearest level first, then the more aggressive price", () => {
    const bids = [q("buy", "0.45", 30, 1), q("buy", "0.49", 30, 0), q("buy", "0.50", 30, 0)];
    expect(fitSides(bids, { buy: sh(150), sell: 0n }).out).toEqual(["held", "buy#0:20", "buy#0:30"]);
  });

  it("asks fit into the shares held, net of the asks still live", () => {
    // 30 held, an ask of 20 being cancelled: its replacement may sell 10.
    expect(fitSides([q("sell", "0.55", 20)], { buy: 0n, sell: sh(20) }, 0, 30).out).toEqual(["sell#0:10"]);
  });

  it("committed beyond the limit (the limit shrank under live orders) holds everything", () => {
    expect(fitSides([q("buy", "0.40", 5)], { buy: sh(250), sell: 0n }).out).toEqual(["held"]);
  });

  it("whatever the placements and the committed sizes, old and new orders together stay within the limit", () => {
    fc.assert(
      fc.property(
        fc.array(gridQuoteArb, { maxLength: 8 }),
        fc.integer({ min: -250, max: 250 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 400 }),
        (places, p, cb, cs, held) => {
          const committed = { buy: sh(cb), sell: sh(cs) };
          const limits = sideLimits(exposure(p, undefined, undefined, held), caps, MIN);
          const decisions: RiskDecision[] = [];
          const out = fitInFlight(places, committed, limits, market(), decisions);
          for (const side of ["buy", "sell"] as const) {
            let placed = 0n;
            out.forEach((x, i) => {
              if (x === undefined) return;
              const asked = places[i] as DesiredQuote;
              expect(
                x.side === asked.side && x.priceMicro === asked.priceMicro && x.level === asked.level,
              ).toBe(true);
              // Unchanged, or clipped to at least the minimum.
              expect(x === asked || (x.sizeMicro < asked.sizeMicro && x.sizeMicro >= MIN)).toBe(true);
              if (x.side === side) placed += x.sizeMicro;
            });
            // New orders never take a side past its limit, whatever is committed already.
            if (placed > 0n) expect(committed[side] + placed <= limits[side].capMicro).toBe(true);
          }
          // Every placement changed is explained by exactly one decision.
          const changed = out.filter((x, i) => x !== places[i]).length;
          expect(decisions).toHaveLength(changed);
        },
      ),
      { numRuns: 500 },
    );
  });
});
