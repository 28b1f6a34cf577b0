import { describe, expect, it } from "vitest";
import { DrawdownKillSwitch } from "../../../src/risk/kill-switch.js";
import { sh } from "./helpers.js";

const EARLIER = { atMs: 5, peakMicro: sh(300), pnlMicro: sh(150), drawdownMicro: sh(150) };

describe("DrawdownKillSwitch restored from an earlier run's trip (limit 100 USDC)", () => {
  it("is tripped from the start, with that trip, and neither observations nor new highs re-arm it", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.restore(EARLIER);
    expect(ks.active).toBe(true);
    expect(ks.trip).toEqual(EARLIER);
    expect(ks.observe(sh(10), 10)).toBe(false); // not a new trip to report
    expect(ks.observe(sh(900), 20)).toBe(false);
    expect(ks.active).toBe(true);
    expect(ks.trip).toEqual(EARLIER);
  });

  it("re-armed before any observation, the peak is the PnL given to reset", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.restore(EARLIER);
    ks.reset(sh(150));
    expect(ks.active).toBe(false);
    expect(ks.drawdownMicro).toBe(0n);
    expect(ks.observe(sh(50), 30)).toBe(false); // exactly the limit below 150
    expect(ks.observe(sh(50) - 1n, 31)).toBe(true);
    expect(ks.trip).toEqual({
      atMs: 31,
      peakMicro: sh(150),
      pnlMicro: sh(50) - 1n,
      drawdownMicro: sh(100) + 1n,
    });
  });

  it("reset() without a PnL keeps today's rule: the peak restarts at the last observed PnL", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.observe(sh(200), 1);
    ks.observe(sh(50), 2);
    expect(ks.active).toBe(true);
    ks.reset();
    expect(ks.drawdownMicro).toBe(0n);
    expect(ks.observe(sh(-50), 3)).toBe(false);
    expect(ks.observe(sh(-51), 4)).toBe(true);
  });
});
