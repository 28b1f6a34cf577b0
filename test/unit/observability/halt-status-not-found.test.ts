import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { NOT_FOUND_STATUS } from "../../../src/engine/sweep-words.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { marketDecision } from "../../../src/risk/decision.js";
import { parseExposition, sumOf } from "./exposition.js";

/*
 * A quoted market the open-market sweep holds NOT_FOUND (neither in the market list nor found by
 * its slug: the exchange no longer shows it) was counted in mm_risk_halts_total under the status
 * `other`, with statuses the exchange sent outside the spec: a dashboard or an alert could not tell
 * a market gone from the exchange from an unknown status. It has its own label now, at zero from
 * the start as the others.
 */

async function families(registry: Registry) {
  return parseExposition(await registry.metrics());
}

describe("mm_risk_halts_total: a market held NOT_FOUND", () => {
  it("is counted under status NOT_FOUND, not `other`", async () => {
    const registry = new Registry();
    const m = createMetrics({ registry, defaultMetrics: false });
    const halts = { reason: "market_not_open", scope: "market" };
    let f = await families(registry);
    expect(f.get("mm_risk_halts_total")?.samples.some((s) => s.labels.status === NOT_FOUND_STATUS)).toBe(
      true,
    );
    m.onRiskDecision(marketDecision("market_not_open", "m1", { status: NOT_FOUND_STATUS }));
    f = await families(registry);
    expect(sumOf(f, "mm_risk_halts_total", { ...halts, status: NOT_FOUND_STATUS })).toBe(1);
    expect(sumOf(f, "mm_risk_halts_total", { ...halts, status: "other" })).toBe(0);
    m.close();
  });
});
