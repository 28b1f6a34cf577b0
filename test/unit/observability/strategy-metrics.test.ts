import { describe, expect, it } from "vitest";
import { STRATEGY_NAMES } from "../../../strategies/registry.js";
import { parseExposition, sumOf } from "./exposition.js";
import { bareMetrics, T0 } from "./fixture.js";

/*
 * A failing strategy's log keeps the first failure of each message per token (strategy-health.ts):
 * the count of every failure, and of every slow call, is the metrics'. Each registered strategy's
 * series exist at 0 from the start, so an alert on increase() sees the first failure.
 */
describe("metrics: strategy failures and slow calls", () => {
  it("counts each failure by strategy and reason, each slow call by strategy, from 0", async () => {
    const { registry, metrics } = bareMetrics();
    const scrape = async () => parseExposition(await registry.metrics());
    let f = await scrape();
    for (const strategy of STRATEGY_NAMES) {
      for (const reason of ["threw", "output_invalid"]) {
        expect(
          f
            .get("mm_strategy_failures_total")
            ?.samples.some((s) => s.labels.strategy === strategy && s.labels.reason === reason),
        ).toBe(true);
      }
      expect(sumOf(f, "mm_strategy_slow_calls_total", { strategy })).toBe(0);
    }
    for (let i = 0; i < 3; i++) {
      metrics.listener({
        type: "strategy_failed",
        atMs: T0,
        tokenId: "t1",
        strategy: "glft",
        reason: "threw",
      });
    }
    metrics.listener({
      type: "strategy_failed",
      atMs: T0,
      tokenId: "t2",
      strategy: "glft",
      reason: "output_invalid",
    });
    metrics.listener({ type: "strategy_slow", atMs: T0, tokenId: "t1", strategy: "bands", tookMs: 80 });
    f = await scrape();
    expect(sumOf(f, "mm_strategy_failures_total", { strategy: "glft", reason: "threw" })).toBe(3);
    expect(sumOf(f, "mm_strategy_failures_total", { strategy: "glft", reason: "output_invalid" })).toBe(1);
    expect(sumOf(f, "mm_strategy_failures_total")).toBe(4);
    expect(sumOf(f, "mm_strategy_slow_calls_total", { strategy: "bands" })).toBe(1);
    metrics.close();
  });
});
