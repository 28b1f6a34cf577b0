import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import {
  horizonLabel,
  type MarkoutSample,
  MarkoutTracker,
} from "../../../src/observability/metrics/markout.js";

function setup(mids: Map<string, number | undefined>, clock = new SimClock(1_000_000)) {
  const samples: MarkoutSample[] = [];
  const missing: { tokenId: string; horizonMs: number }[] = [];
  const tracker = new MarkoutTracker({
    clock,
    mid: (t) => mids.get(t),
    onSample: (s) => samples.push(s),
    onMissing: (f, h) => missing.push({ tokenId: f.tokenId, horizonMs: h }),
  });
  return { clock, samples, missing, tracker };
}

describe("MarkoutTracker", () => {
  it("samples the mid at +1 s, +10 s and +60 s after the fill and signs the edge by side", () => {
    const mids = new Map<string, number | undefined>([["A", 500_000]]);
    const { clock, samples, tracker } = setup(mids);
    tracker.record({ tokenId: "A", side: "buy", priceMicro: 500_000, sizeMicro: 10_000_000n });
    tracker.record({ tokenId: "A", side: "sell", priceMicro: 510_000, sizeMicro: 5_000_000n });
    mids.set("A", 520_000);
    clock.advanceBy(999);
    expect(samples).toHaveLength(0); // not before the horizon
    clock.advanceBy(1);
    expect(samples.map((s) => [s.fill.side, s.horizonMs, s.midMicro, s.markoutMicro])).toEqual([
      ["buy", 1_000, 520_000, 20_000], // bought at 0.50, mid 0.52: +0.02 per share
      ["sell", 1_000, 520_000, -10_000], // sold at 0.51, mid 0.52: −0.01 per share
    ]);
    mids.set("A", 495_000);
    clock.advanceTo(1_010_000);
    expect(samples.slice(2).map((s) => [s.horizonMs, s.markoutMicro])).toEqual([
      [10_000, -5_000],
      [10_000, 15_000],
    ]);
    mids.set("A", 500_500); // a half-tick mid (bid + ask odd) is kept exact
    clock.advanceTo(1_060_000);
    expect(samples.slice(4).map((s) => [s.horizonMs, s.markoutMicro])).toEqual([
      [60_000, 500],
      [60_000, 9_500],
    ]);
    expect(tracker.pending).toBe(0);
    clock.advanceBy(600_000);
    expect(samples).toHaveLength(6); // nothing after the last horizon
  });

  it("reports a horizon with no mid as missing instead of inventing a price", () => {
    const mids = new Map<string, number | undefined>([["A", undefined]]);
    const { clock, samples, missing, tracker } = setup(mids);
    tracker.record({ tokenId: "A", side: "buy", priceMicro: 400_000, sizeMicro: 1_000_000n });
    clock.advanceBy(1_000);
    mids.set("A", 410_000);
    clock.advanceBy(9_000);
    expect(missing).toEqual([{ tokenId: "A", horizonMs: 1_000 }]);
    expect(samples.map((s) => s.markoutMicro)).toEqual([10_000]);
  });

  it("measures each horizon from the fill, whenever the previous sample fired", () => {
    const mids = new Map<string, number | undefined>([["A", 300_000]]);
    const { clock, samples, tracker } = setup(mids);
    clock.advanceBy(250);
    tracker.record({ tokenId: "A", side: "buy", priceMicro: 300_000, sizeMicro: 1n });
    clock.advanceTo(1_000_000 + 250 + 60_000); // one big jump: all three fire at their own deadlines
    expect(samples.map((s) => s.horizonMs)).toEqual([1_000, 10_000, 60_000]);
  });

  it("times a fill heard of late from its own time and reports the horizons already past as missing", () => {
    const mids = new Map<string, number | undefined>([["A", 400_000]]);
    const { clock, samples, missing, tracker } = setup(mids);
    const filledAt = clock.now();
    clock.advanceBy(5_000); // found 5 s after the fill: the 1 s horizon has gone by
    expect(tracker.record({ tokenId: "A", side: "buy", priceMicro: 390_000, sizeMicro: 1n }, filledAt)).toBe(
      true,
    );
    expect(missing).toEqual([{ tokenId: "A", horizonMs: 1_000 }]);
    mids.set("A", 410_000);
    clock.advanceTo(filledAt + 9_999);
    expect(samples).toHaveLength(0);
    clock.advanceTo(filledAt + 10_000); // 10 s after the fill, 5 s after its receipt
    mids.set("A", 420_000);
    clock.advanceTo(filledAt + 60_000);
    expect(samples.map((s) => [s.horizonMs, s.markoutMicro])).toEqual([
      [10_000, 20_000],
      [60_000, 30_000],
    ]);
    expect(missing).toHaveLength(1);
  });

  it("follows nothing for a fill older than the last horizon, reads a deadline of exactly now, and never times from the future", () => {
    const mids = new Map<string, number | undefined>([["A", 500_000]]);
    const { clock, samples, missing, tracker } = setup(mids);
    const t = clock.now();
    clock.advanceBy(60_001);
    tracker.record({ tokenId: "A", side: "sell", priceMicro: 500_000, sizeMicro: 1n }, t);
    expect(missing.map((m) => m.horizonMs)).toEqual([1_000, 10_000, 60_000]);
    expect(tracker.pending).toBe(0);
    // 60 s to the ms: 1 s and 10 s are past, but the mid now is the 60 s mid, so that one is read.
    tracker.record({ tokenId: "A", side: "sell", priceMicro: 510_000, sizeMicro: 1n }, clock.now() - 60_000);
    expect(missing.slice(3).map((m) => m.horizonMs)).toEqual([1_000, 10_000]);
    clock.advanceBy(0);
    expect(samples.map((s) => [s.horizonMs, s.markoutMicro])).toEqual([[60_000, 10_000]]);
    // A fill time ahead of ours (the exchange's clock runs fast) is timed from now.
    tracker.record({ tokenId: "A", side: "buy", priceMicro: 490_000, sizeMicro: 1n }, clock.now() + 5_000);
    clock.advanceBy(1_000);
    expect(samples.map((s) => s.horizonMs)).toEqual([60_000, 1_000]);
  });

  it("bounds the fills it follows and stops on close", () => {
    const clock = new SimClock(0);
    const samples: MarkoutSample[] = [];
    const tracker = new MarkoutTracker({
      clock,
      mid: () => 500_000,
      onSample: (s) => samples.push(s),
      maxPending: 2,
      horizonsMs: [500],
    });
    const fill = { tokenId: "A", side: "buy" as const, priceMicro: 490_000, sizeMicro: 1n };
    expect(tracker.record(fill)).toBe(true);
    expect(tracker.record(fill)).toBe(true);
    expect(tracker.record(fill)).toBe(false);
    tracker.close();
    expect(clock.pending).toBe(0);
    clock.advanceBy(1_000);
    expect(samples).toHaveLength(0);
    expect(tracker.record(fill)).toBe(false);
  });

  it("rejects horizons that are not positive and labels them readably", () => {
    const clock = new SimClock(0);
    expect(() => new MarkoutTracker({ clock, mid: () => 1, onSample: () => {}, horizonsMs: [0] })).toThrow(
      RangeError,
    );
    expect([1_000, 10_000, 60_000, 250].map(horizonLabel)).toEqual(["1s", "10s", "60s", "250ms"]);
  });
});
