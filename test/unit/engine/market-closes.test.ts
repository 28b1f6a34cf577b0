import { describe, expect, it } from "vitest";
import type { Clock, TimerId } from "../../../src/core/clock.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import { MAX_TIMER_STEP_MS, MarketCloses } from "../../../src/engine/market-closes.js";

const T0 = 1_750_000_000_000;

/** A SimClock that notes every delay it is asked for. */
class NotingClock implements Clock {
  readonly inner = new SimClock(T0);
  readonly delays: number[] = [];
  now(): number {
    return this.inner.now();
  }
  setTimer(delayMs: number, fn: () => void): TimerId {
    this.delays.push(delayMs);
    return this.inner.setTimer(delayMs, fn);
  }
  cancelTimer(id: TimerId): void {
    this.inner.cancelTimer(id);
  }
}

function closes(clock: Clock): { watch: MarketCloses; seen: [string, number, number][] } {
  const seen: [string, number, number][] = [];
  const watch = new MarketCloses(clock, (m, at) => seen.push([m, at, clock.now()]));
  return { watch, seen };
}

describe("MarketCloses", () => {
  it("reports each market once, the first millisecond after its earliest closesAt; never one without", () => {
    const clock = new SimClock(T0);
    const { watch, seen } = closes(clock);
    watch.arm([
      { marketId: "a", closesAtMs: T0 + 5_000 },
      { marketId: "a", closesAtMs: T0 + 5_000 },
      { marketId: "b", closesAtMs: T0 + 2_000 },
      { marketId: "c", closesAtMs: undefined },
    ]);
    clock.advanceTo(T0 + 2_000);
    expect(seen).toEqual([]);
    clock.advanceTo(T0 + 10_000);
    expect(seen).toEqual([
      ["b", T0 + 2_000, T0 + 2_001],
      ["a", T0 + 5_000, T0 + 5_001],
    ]);
    watch.arm([{ marketId: "a", closesAtMs: T0 + 20_000 }]); // reported already: not again
    clock.advanceTo(T0 + 86_400_000);
    expect(seen).toHaveLength(2);
    expect(watch.closed("a") && watch.closed("b") && !watch.closed("c")).toBe(true);
  });

  it("reports a market closed before arm at once", () => {
    const clock = new SimClock(T0);
    const { watch, seen } = closes(clock);
    watch.arm([{ marketId: "a", closesAtMs: T0 - 1 }]);
    expect(seen).toEqual([["a", T0 - 1, T0]]);
  });

  it("never asks the clock for a timer longer than a day (Node fires longer ones at once)", () => {
    const clock = new NotingClock();
    const { watch, seen } = closes(clock);
    const far = T0 + 90 * 86_400_000 + 123;
    watch.arm([{ marketId: "a", closesAtMs: far }]);
    clock.inner.advanceTo(far);
    expect(seen).toEqual([]);
    clock.inner.advanceTo(far + 1);
    expect(seen).toEqual([["a", far, far + 1]]);
    expect(Math.max(...clock.delays)).toBeLessThanOrEqual(MAX_TIMER_STEP_MS);
    expect(MAX_TIMER_STEP_MS).toBeLessThan(2 ** 31 - 1);
  });

  it("clear stops every pending report", () => {
    const clock = new SimClock(T0);
    const { watch, seen } = closes(clock);
    watch.arm([{ marketId: "a", closesAtMs: T0 + 1_000 }]);
    watch.clear();
    clock.advanceTo(T0 + 5_000);
    expect(seen).toEqual([]);
  });
});
