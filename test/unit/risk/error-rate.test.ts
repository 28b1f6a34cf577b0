import { describe, expect, it } from "vitest";
import { ErrorRateHalt } from "../../../src/risk/error-rate.js";

/** More than 3 errors in (now − 10 s, now] halts for 60 s. */
const settings = { maxErrors: 3, windowMs: 10_000, coolDownMs: 60_000, ignoreCodes: ["not_cancellable"] };

/** Records errors at the given times; returns the time of the trip, if any. */
function feed(h: ErrorRateHalt, times: number[], code = "insufficient_funds"): number | undefined {
  let tripAt: number | undefined;
  for (const t of times) if (h.record(code, t)) tripAt = t;
  return tripAt;
}

describe("ErrorRateHalt", () => {
  it.each([
    ["exactly maxErrors in the window: no halt", [0, 1_000, 2_000], undefined],
    ["one more inside the window: halt", [0, 1_000, 2_000, 9_999], 9_999],
    ["the oldest just left the window (t ≤ now − window)", [0, 1_000, 2_000, 10_000], undefined],
    ["a burst after a quiet spell", [0, 20_000, 20_001, 20_002, 20_003], 20_003],
    ["spread out errors never trip", [0, 4_000, 8_000, 12_000, 16_000, 20_000, 24_000], undefined],
  ])("%s", (_name, times, tripAt) => {
    expect(feed(new ErrorRateHalt(settings), times as number[])).toBe(tripAt);
  });

  it("halts for exactly coolDownMs from the tripping error, then resumes with an empty window", () => {
    const h = new ErrorRateHalt(settings);
    expect(feed(h, [100, 200, 300, 400])).toBe(400);
    expect(h.haltedUntil).toBe(60_400);
    expect(h.halted(400)).toBe(true);
    // Errors during the halt answer orders sent before it: not counted, no second trip.
    expect(feed(h, [500, 600, 700, 800, 60_000])).toBeUndefined();
    expect(h.count(60_000)).toBe(0);
    expect(h.haltedUntil).toBe(60_400);
    // (Times only move forward here: a step back of the clock moves the halt with it.)
    expect(h.halted(60_399)).toBe(true);
    expect(h.halted(60_400)).toBe(false);
    expect(h.count(60_400)).toBe(0);
    // After the cool-down it takes a fresh burst of more than maxErrors.
    expect(feed(h, [60_400, 60_500, 60_600])).toBeUndefined();
    expect(h.halted(60_600)).toBe(false);
    expect(feed(h, [60_700])).toBe(60_700);
    expect(h.haltedUntil).toBe(120_700);
  });

  it("does not count ignored codes", () => {
    const h = new ErrorRateHalt(settings);
    expect(feed(h, [0, 1, 2, 3, 4, 5], "not_cancellable")).toBeUndefined();
    expect(h.count(5)).toBe(0);
  });

  it("maxErrors 0 halts on the first counted error", () => {
    const h = new ErrorRateHalt({ ...settings, maxErrors: 0 });
    expect(h.record("bad_signature", 5)).toBe(true);
  });

  it("never halted before any trip", () => {
    expect(new ErrorRateHalt(settings).halted(0)).toBe(false);
  });
});
