import { describe, expect, it } from "vitest";
import type { EngineStatus } from "../../../src/engine/engine-api.js";
import { CANCEL_REASONS } from "../../../src/execution/intents.js";
import { labelNamesOf, parseExposition, sumOf } from "./exposition.js";
import { bareMetrics, SLUGS, T0, TOKENS } from "./fixture.js";

const STATUS: EngineStatus = {
  started: true,
  reconciled: true,
  quotingTokens: 3,
  openOrders: 0,
  inFlight: 0,
  killSwitch: false,
  pnlMicro: 0n,
  drawdownMicro: 0n,
};

function rig(status: EngineStatus) {
  const { registry, metrics } = bareMetrics();
  metrics.registerMarkets(TOKENS, (id) => SLUGS[id]);
  metrics.watchEngine({ status: () => status });
  const scrape = async () => parseExposition(await registry.metrics());
  return { metrics, scrape };
}

describe("metrics: cancel requests by reason, levels backed off", () => {
  it("counts each cancel and cancel-all asked for by its reason, every reason at 0 from the start", async () => {
    const { metrics, scrape } = rig(STATUS);
    let f = await scrape();
    for (const reason of CANCEL_REASONS) {
      expect(sumOf(f, "mm_order_cancel_requests_total", { reason }), reason).toBe(0);
    }
    const at = T0;
    // Two orders' requote cancels on one market.
    for (const clientOrderId of ["c1", "c2"]) {
      metrics.listener({
        type: "cancel_requested",
        atMs: at,
        reason: "requote",
        scope: "order",
        marketId: "m1",
        clientOrderId,
      });
    }
    metrics.listener({
      type: "cancel_requested",
      atMs: at,
      reason: "kill_switch",
      scope: "wallet",
      marketId: undefined,
      clientOrderId: undefined,
    });
    metrics.listener({
      type: "cancel_outcome",
      atMs: at,
      clientOrderId: "c1",
      outcome: "done",
      reason: "requote",
    });
    f = await scrape();
    expect(sumOf(f, "mm_order_cancel_requests_total", { reason: "requote" })).toBe(2);
    expect(sumOf(f, "mm_order_cancel_requests_total", { reason: "kill_switch" })).toBe(1);
    expect(sumOf(f, "mm_order_cancel_requests_total")).toBe(3);
    // The outcome families keep their labels (dashboards and alerts read them).
    const cancels = f.get("mm_order_cancels_total");
    expect(labelNamesOf(cancels as NonNullable<typeof cancels>)).toEqual(["result"]);
    expect(sumOf(f, "mm_order_cancels_total", { result: "done" })).toBe(1);
    metrics.close();
  });

  it("reads the levels held empty by the refusal back-off per market at scrape time", async () => {
    const levels = new Map<string, number>();
    const { metrics, scrape } = rig({ ...STATUS, backedOffLevels: levels });
    let f = await scrape();
    expect(sumOf(f, "mm_quote_levels_backed_off", { market: "arg-win" })).toBe(0);
    expect(sumOf(f, "mm_quote_levels_backed_off", { market: "bra-win" })).toBe(0);
    levels.set("1001", 1).set("1002", 2).set("3001", 1); // m3 is past the label cap: `other`
    f = await scrape();
    expect(sumOf(f, "mm_quote_levels_backed_off", { market: "arg-win" })).toBe(3);
    expect(sumOf(f, "mm_quote_levels_backed_off", { market: "bra-win" })).toBe(0);
    expect(sumOf(f, "mm_quote_levels_backed_off", { market: "other" })).toBe(1);
    levels.clear();
    f = await scrape();
    expect(sumOf(f, "mm_quote_levels_backed_off")).toBe(0);
    metrics.close();
  });
});
