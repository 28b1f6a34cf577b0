import { describe, expect, it } from "vitest";
import { sideLimits } from "../../../src/risk/inventory-caps.js";
import { exposure, sh, smallConfig } from "./helpers.js";

/** Per market soft 100 / hard 200 shares, total soft 500 / hard 1000; minimum order 5 shares. */
const caps = smallConfig().inventory;
const MIN = sh(5);

/** `exposure(...)` with worst-case grosses (whole shares). */
function worst(position: number, gross: number, marketWorst: number, totalWorst?: number) {
  return {
    ...exposure(position, gross, gross),
    marketWorstMicro: sh(marketWorst),
    totalWorstMicro: sh(totalWorst ?? marketWorst),
  };
}

describe("sideLimits: the hard caps count the other tokens at their worst case", () => {
  it("a sibling resting 150 (flat) leaves 50 of the market's 200", () => {
    const l = sideLimits(worst(0, 0, 150), caps, MIN);
    expect([l.buy.capMicro, l.sell.capMicro, l.reduceOnly]).toEqual([sh(50), sh(50), false]);
  });

  it("long 20 beside a sibling whose worst is 150: L = 50, buys 30, sells 70", () => {
    // market worst = 20 (this one) + 150; room for |p| is 200 − 150.
    const l = sideLimits(worst(20, 20, 170), caps, MIN);
    expect([l.buy.capMicro, l.sell.capMicro]).toEqual([sh(30), sh(70)]);
  });

  it("the wallet's worst case binds the same way (total hard 1000)", () => {
    const l = sideLimits(worst(0, 0, 0, 990), caps, MIN);
    expect([l.buy.capMicro, l.buy.reason]).toEqual([sh(10), "hard_cap_size_clipped"]);
    const full = sideLimits(worst(0, 0, 0, 998), caps, MIN);
    expect([full.buy.capMicro, full.buy.reason]).toEqual([0n, "hard_cap_side_blocked"]);
  });

  it("the soft cap reads the positions only: siblings' orders never make quoting reduce-only", () => {
    // The market's worst case is at the soft cap (100), its gross is 0: not reduce-only.
    const l = sideLimits(worst(0, 0, 150), caps, MIN);
    expect(l.reduceOnly).toBe(false);
    // The gross at the soft cap is: long 10 of 100 gross, reduce-only, sells 10.
    const r = sideLimits(worst(10, 100, 100), caps, MIN);
    expect([r.reduceOnly, r.buy.capMicro, r.sell.capMicro]).toEqual([true, 0n, sh(10)]);
  });

  it("a worst case below the gross (inconsistent) is read as the gross, never as headroom", () => {
    const l = sideLimits(worst(0, 80, 0), caps, MIN);
    expect(l.buy.capMicro).toBe(sh(120));
    const w = sideLimits(worst(0, 0, 150, 0), caps, MIN);
    expect(w.buy.capMicro).toBe(sh(50)); // the total is at least the market's
  });
});
