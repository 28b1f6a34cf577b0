import { describe, expect, it } from "vitest";
import { resolveEngineOptions } from "../../../src/engine/engine-deps.js";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import { SteppedClock } from "../../support/stepped-clock.js";
import { churn, logsNamed, startedWith, TWO_QUOTES } from "./support/strategy-steps.js";

/*
 * `quote` runs synchronously on the event loop: a strategy that takes 80 ms per call delays every
 * other token's step and every socket by as much, and nothing said so (it showed, unexplained, in
 * mm_tick_to_order_seconds). A call cannot be pre-empted in-thread, but it can be measured: on the
 * engine's monotonic clock (its Clock port: a backtest's SimClock does not advance during a call,
 * so there it measures 0, deterministically), counted above engine.strategySlowMs
 * (the strategy_slow event, mm_strategy_slow_calls_total), and warned of at most once a minute per
 * strategy. Its quotes stand: a slow strategy still prices correctly.
 */

/** A monotonic clock the strategy's own run moves forward (the time a call takes). */
class CallTimedClock extends SteppedClock {
  spentMs = 0;
  override monotonic(): number {
    return super.monotonic() + this.spentMs;
  }
}

async function started(slowMs: number | undefined) {
  let clock: CallTimedClock | undefined;
  const s: ConfiguredStrategy & { takesMs: number; calls: number } = {
    name: "sluggish",
    params: {},
    takesMs: 0,
    calls: 0,
    quote() {
      s.calls++;
      if (clock !== undefined) clock.spentMs += s.takesMs;
      return [...TWO_QUOTES];
    },
  };
  const { h, yes } = await startedWith(s, {
    engineClock: (x) => {
      clock = new CallTimedClock(x);
      return clock;
    },
    options: slowMs === undefined ? {} : { strategySlowMs: slowMs },
  });
  return { h, s, yes };
}

describe("engine: a strategy whose calls take long", () => {
  it("counts every call above engine.strategySlowMs, warns at most once a minute, keeps quoting", async () => {
    const { h, s, yes } = await started(50);
    s.takesMs = 80;
    const before = s.calls;
    await churn(h, yes, 20);
    const slowCalls = s.calls - before;
    expect(slowCalls).toBeGreaterThanOrEqual(20);
    const events = h.eventsOf("strategy_slow");
    expect(events).toHaveLength(slowCalls);
    expect(events.every((e) => e.strategy === "sluggish" && e.tookMs === 80 && e.tokenId === yes)).toBe(true);
    let warned = logsNamed(h, "strategy slow");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      level: 40,
      strategy: "sluggish",
      tokenId: yes,
      tookMs: 80,
      slowMs: 50,
    });
    expect(h.botQuotes(yes).sort()).toEqual(["buy 0.47 10", "sell 0.53 10"]);

    // Another minute of slow calls: one more line, with their count and the slowest.
    s.takesMs = 120;
    await churn(h, yes, 250, 250); // 60+ s of monotonic time
    warned = logsNamed(h, "strategy slow");
    expect(warned.length).toBeGreaterThanOrEqual(2);
    expect(warned.length).toBeLessThanOrEqual(3);
    expect(Number(warned[1]?.slowCalls)).toBeGreaterThan(100);
    expect(warned[1]?.maxMs).toBe(120);

    // Fast again: nothing counted.
    const counted = h.eventsOf("strategy_slow").length;
    s.takesMs = 10;
    await churn(h, yes, 5);
    expect(h.eventsOf("strategy_slow")).toHaveLength(counted);
  });

  it("measures 0 on a clock that does not move during the call (a backtest's SimClock)", async () => {
    const { h, yes } = await startedWith(
      { name: "instant", params: {}, quote: () => [...TWO_QUOTES] },
      { options: { strategySlowMs: 1 } },
    );
    await churn(h, yes, 5);
    expect(h.eventsOf("strategy_slow")).toEqual([]);
  });

  it("engine.strategySlowMs defaults to 50 ms", async () => {
    const { h, s, yes } = await started(undefined);
    s.takesMs = 50;
    await churn(h, yes, 3);
    expect(h.eventsOf("strategy_slow")).toEqual([]);
    s.takesMs = 51;
    await churn(h, yes, 3);
    expect(h.eventsOf("strategy_slow").length).toBeGreaterThan(0);
  });

  it("the engine's options refuse a threshold that is not an integer ms in [1, 60000]", () => {
    expect(resolveEngineOptions({ session: "bt" }).strategySlowMs).toBe(50);
    for (const bad of [0, -5, 1.5, 60_001, Number.NaN]) {
      expect(() => resolveEngineOptions({ session: "bt", strategySlowMs: bad })).toThrow(
        "strategySlowMs: must be an integer in [1, 60000]",
      );
    }
  });
});
