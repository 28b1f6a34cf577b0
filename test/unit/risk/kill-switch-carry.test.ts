import { describe, expect, it } from "vitest";
import { DrawdownKillSwitch } from "../../../src/risk/kill-switch.js";
import { sh } from "./helpers.js";

describe("DrawdownKillSwitch with an earlier run's drawdown carried over (limit 100 USDC)", () => {
  it("starts with the carried drawdown used: the first PnL's peak lies that far above it", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.carry(sh(70));
    expect(ks.drawdownMicro).toBe(sh(70)); // before any observation, the carry is the drawdown
    expect(ks.observe(sh(-500), 1)).toBe(false); // peak −430: 70 below it
    expect(ks.drawdownMicro).toBe(sh(70));
    expect(ks.observe(sh(-530), 2)).toBe(false); // 100 below: at the limit
    expect(ks.observe(sh(-530) - 1n, 3)).toBe(true);
    expect(ks.trip).toEqual({
      atMs: 3,
      peakMicro: sh(-430),
      pnlMicro: sh(-530) - 1n,
      drawdownMicro: sh(100) + 1n,
    });
  });

  it("a recovery above the carried peak moves the peak as usual", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.carry(sh(70));
    ks.observe(sh(0), 1); // peak 70
    expect(ks.observe(sh(120), 2)).toBe(false); // new peak 120
    expect(ks.drawdownMicro).toBe(0n);
    expect(ks.observe(sh(20), 3)).toBe(false);
    expect(ks.observe(sh(20) - 1n, 4)).toBe(true);
  });

  it("a carry beyond the limit (the limit was lowered since) trips at the first observation", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.carry(sh(150));
    expect(ks.observe(sh(10), 7)).toBe(true);
    expect(ks.trip).toEqual({ atMs: 7, peakMicro: sh(160), pnlMicro: sh(10), drawdownMicro: sh(150) });
  });

  it("reset drops the carry: the peak is the PnL given, before or after an observation", () => {
    const before = new DrawdownKillSwitch(sh(100));
    before.carry(sh(90));
    before.reset(undefined);
    expect(before.drawdownMicro).toBe(0n);
    expect(before.observe(sh(5), 1)).toBe(false);
    expect(before.observe(sh(-95), 2)).toBe(false); // 100 below 5: the carry is gone
    const after = new DrawdownKillSwitch(sh(100));
    after.carry(sh(90));
    after.observe(sh(0), 1);
    after.reset();
    expect(after.drawdownMicro).toBe(0n);
    expect(after.observe(sh(-100), 2)).toBe(false);
  });

  it("a carry after the first observation changes nothing, and a negative one is refused", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.observe(sh(0), 1);
    ks.carry(sh(90));
    expect(ks.observe(sh(-100), 2)).toBe(false);
    expect(() => ks.carry(-1n)).toThrow(RangeError);
  });

  it("tells each rise of the drawdown by 1% of the limit once, measured from the last told or a lower one", () => {
    const ks = new DrawdownKillSwitch(sh(100));
    ks.carry(sh(30));
    expect(ks.risen()).toBe(sh(30)); // the carry itself: the new run's journal holds it at once
    ks.observe(sh(0), 1); // peak 30, drawdown 30
    expect(ks.risen()).toBeUndefined();
    ks.observe(-sh(0.5), 2); // 30.5: less than 1 USDC more
    expect(ks.risen()).toBeUndefined();
    ks.observe(sh(-1), 3); // 31
    expect(ks.risen()).toBe(sh(31));
    ks.observe(-sh(0.5), 4); // 30.5: a fall of less than the step leaves the base at 31
    expect(ks.risen()).toBeUndefined();
    ks.observe(-sh(1.5), 5); // 31.5: no rise of a step above 31 either
    expect(ks.risen()).toBeUndefined();
    ks.observe(sh(20), 4); // 10 below the peak: a fall of a step or more re-bases what a rise is measured from
    expect(ks.risen()).toBeUndefined();
    ks.observe(sh(19), 5);
    expect(ks.risen()).toBe(sh(11));
    ks.observe(sh(-200), 6); // tripped: the trip holds the figures
    expect(ks.active).toBe(true);
    expect(ks.risen()).toBeUndefined();
  });
});
