import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseExposition } from "../../unit/observability/exposition.js";
import { type InstrumentedStack, startInstrumentedStack } from "./stack.js";

/**
 * README "Metrics" lists mm_queue_bucket_remaining and mm_queue_bucket_limit ("Requests the local rate
 * budget may send now", "Limit each local rate bucket is paced at"), and issue 7 asks for the queue's "bucket
 * remaining". Their only source is Metrics.watchRateBudget, which the daemon did not call (the engine
 * built its RateBudget inside and never exposed it), so mm run / mm paper exported both families with
 * no sample at all (found by review). The engine exposes it now (TradingEngine.rateBudget).
 */
describe("local rate-bucket gauges in paper mode", () => {
  let stack: InstrumentedStack;
  beforeAll(async () => {
    stack = await startInstrumentedStack();
  }, 30_000);
  afterAll(async () => {
    await stack?.close();
  });

  it("mm_queue_bucket_remaining and mm_queue_bucket_limit carry samples for place, cancel and cancel_all", async () => {
    const families = parseExposition(await (await fetch(stack.metricsUrl)).text());
    for (const name of ["mm_queue_bucket_remaining", "mm_queue_bucket_limit"]) {
      const f = families.get(name);
      expect(f?.type, name).toBe("gauge");
      const ops = new Set(f?.samples.map((s) => s.labels.op));
      expect([...ops], `${name}: ops with a sample`).toEqual(
        expect.arrayContaining(["place", "cancel", "cancel_all"]),
      );
    }
  });
});
