import { describe, expect, it } from "vitest";
import { steppedStarted } from "./support/stepped-harness.js";

const MINUTE = 60_000;

/**
 * The daemon's clock is the wall clock (LiveClock: Date.now()), which NTP or a VM resume can step by
 * minutes while timers keep running on monotonic time. Quoting must go on within seconds of a step,
 * not after the step's length.
 */
describe.each([
  ["back", -10 * MINUTE],
  ["forward", 10 * MINUTE],
])("engine across a wall-clock step %s by 10 min", (_name, stepMs) => {
  it("requotes a moved book at once, applies a streamed fill, and keeps reconciling", async () => {
    const { h, wall, yes } = await steppedStarted();
    wall.stepMs = stepMs;
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(100);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.49 10", "sell 0.55 10"]);
    h.take(yes, "sell", "0.49", "104"); // the crowd's 100, then 4 of our bid
    await h.run(100);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    h.crowdQuote(yes, "0.50", "0.54");
    await h.run(61_000);
    expect(h.eventsOf("reconcile_failed")).toEqual([]);
    expect(h.eventsOf("reconcile").length).toBeGreaterThanOrEqual(3);
    expect(h.engine.positionOf(yes)).toBe(4_000_000n);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.49 10", "sell 0.55 10"]);
  });

  it("an error-rate halt that was running when the clock stepped ends after its cool-down", async () => {
    const risk = { errorRate: { maxErrors: 2, windowMs: 10_000, coolDownMs: 5_000 } };
    const { h, wall, yes } = await steppedStarted({ risk });
    h.exchange.scriptPlace(
      { kind: "reject", code: "insufficient_funds" },
      { kind: "reject", code: "insufficient_funds" },
      { kind: "reject", code: "insufficient_funds" },
    );
    h.crowdQuote(yes, "0.47", "0.51"); // two rejects
    await h.run();
    h.crowdQuote(yes, "0.48", "0.52"); // the third trips the halt
    await h.run();
    expect(h.logs.records().some((r) => r.msg === "risk: error_rate_halt")).toBe(true);
    expect(h.botQuotes()).toEqual([]);
    wall.stepMs = stepMs;
    // Stepped back, the halt runs on from the clock's last reading before the step (nothing read the
    // clock since the trip here): it ends after at most twice its cool-down, then quoting resumes
    // without any book event to trigger it.
    await h.run(10_010);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });

  it("an order filled just before the step (pruned at once when stepped forward) is not counted twice by the backfill", async () => {
    const { h, wall, yes } = await steppedStarted();
    h.take(yes, "sell", "0.47", "110"); // the crowd's 100, then our whole bid
    await h.run(100);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    wall.stepMs = stepMs;
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run(61_000);
    expect(h.eventsOf("reconcile_failed")).toEqual([]);
    expect(h.engine.positionOf(yes)).toBe(10_000_000n);
    expect(h.eventsOf("fill")).toHaveLength(1);
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);
  });
});
