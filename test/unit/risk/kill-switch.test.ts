import { describe, expect, it } from "vitest";
import { DrawdownKillSwitch } from "../../../src/risk/kill-switch.js";
import { sh } from "./helpers.js";

/** Feeds a PnL path (whole USDC, one step per second) and returns, per step, whether it is active. */
function run(ks: DrawdownKillSwitch, path: number[], t0 = 0): boolean[] {
  return path.map((pnl, i) => {
    ks.observe(sh(Math.abs(pnl)) * (pnl < 0 ? -1n : 1n), t0 + i * 1000);
    return ks.active;
  });
}

describe("DrawdownKillSwitch (limit 100 USDC)", () => {
  it.each([
    ["a loss of exactly the limit from the start does not trip", [0, -100], [false, false]],
    ["one micro-USDC beyond does", [0, -100.000001], [false, true]],
    [
      "the peak trails: up 150, down to 40 = 110 below the peak",
      [0, 150, 60, 40],
      [false, false, false, true],
    ],
    ["a rise before the fall resets nothing: 0 → 80 → -25", [0, 80, -25], [false, false, true]],
    ["the first observation is the starting peak", [-300, -350, -401], [false, false, true]],
    [
      "a slow bleed within the limit never trips",
      [0, 20, -20, 10, -70, -79],
      [false, false, false, false, false, false],
    ],
  ])("%s", (_name, path, expected) => {
    expect(run(new DrawdownKillSwitch(sh(100)), path as number[])).toEqual(expected);
  });

  it("reports the trip once, stays tripped through a recovery, and only reset re-arms it", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    expect(ks.observe(sh(50), 1_000)).toBe(false);
    expect(ks.observe(sh(200), 2_000)).toBe(false);
    expect(ks.observe(sh(90), 3_000)).toBe(true);
    expect(ks.trip).toEqual({ atMs: 3_000, peakMicro: sh(200), pnlMicro: sh(90), drawdownMicro: sh(110) });
    expect(ks.observe(sh(80), 4_000)).toBe(false); // already tripped: not reported again
    expect(run(ks, [150, 250, 300], 5_000)).toEqual([true, true, true]); // new highs do not un-trip
    ks.reset();
    expect(ks.active).toBe(false);
    expect(ks.drawdownMicro).toBe(0n); // the peak restarts at the last PnL (300)
    expect(ks.observe(sh(200), 9_000)).toBe(false); // 100 below the new peak: at the limit
    expect(ks.observe(sh(199), 10_000)).toBe(true);
  });

  it("reset after a trip without recovery: the peak is the current (low) PnL", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    run(ks, [0, -150]);
    expect(ks.active).toBe(true);
    ks.reset();
    expect(run(ks, [-150, -249, -250.5], 10_000)).toEqual([false, false, true]);
  });

  it("measures drawdown from the peak to the last observation", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    expect(ks.drawdownMicro).toBe(0n);
    run(ks, [10, 40, 15]);
    expect(ks.drawdownMicro).toBe(sh(25));
  });
});
