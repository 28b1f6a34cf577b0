import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { ReconcileSummary } from "../../../src/engine/engine-events.js";
import type { PositionDrift } from "../../../src/execution/reconcile-positions.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { parseExposition } from "./exposition.js";
import { SLUGS, TOKENS } from "./fixture.js";

/** A reconcile whose position check found `runs` (token → ms drifted at every check). */
function summary(runs: Record<string, number>): ReconcileSummary {
  const drifts: PositionDrift[] = Object.entries(runs).map(([tokenId, runMs]) => ({
    tokenId,
    localMicro: 0n,
    remoteMicro: 1_000_000n,
    driftMicro: 1_000_000n,
    sinceMs: 0,
    runSinceMs: 0,
    runMs,
  }));
  return {
    reason: "periodic",
    atMs: 0,
    tookMs: 10,
    updates: 0,
    orphans: 0,
    adopted: 0,
    pending: 0,
    backfilled: 0,
    drifts,
    corrections: [],
  };
}

async function driftSeconds(registry: Registry): Promise<Record<string, number>> {
  const f = parseExposition(await registry.metrics()).get("mm_reconcile_position_drift_seconds");
  return Object.fromEntries(
    (f?.samples ?? []).map((s) => [`${s.labels.market}/${s.labels.outcome}`, s.value]),
  );
}

describe("mm_reconcile_position_drift_seconds", () => {
  it("shows each token's run as of the last check, 0 for the rest, the longest under market=other", async () => {
    const registry = new Registry();
    const m = createMetrics({ registry, maxMarketLabels: 2, defaultMetrics: false });
    m.registerMarkets(TOKENS, (id) => SLUGS[id]);
    // Before any check: a zero series for every token (m3 folds into other).
    expect(await driftSeconds(registry)).toEqual({
      "arg-win/YES": 0,
      "arg-win/NO": 0,
      "bra-win/YES": 0,
      "bra-win/NO": 0,
      "other/other": 0,
    });
    m.onReconcile(summary({ "1001": 930_000, "3001": 45_000, "3002": 120_000, "9999": 5_000 }));
    expect(await driftSeconds(registry)).toEqual({
      "arg-win/YES": 930,
      "arg-win/NO": 0,
      "bra-win/YES": 0,
      "bra-win/NO": 0,
      "other/other": 120, // m3's two tokens and an unregistered one: the longest
    });
    // A check that finds 1001 agreeing ends its run: back to 0, nothing left of it.
    m.onReconcile(summary({ "1002": 0 }));
    expect(await driftSeconds(registry)).toEqual({
      "arg-win/YES": 0,
      "arg-win/NO": 0,
      "bra-win/YES": 0,
      "bra-win/NO": 0,
      "other/other": 0,
    });
    // A failed reconcile checked nothing: the last check's runs stand.
    m.onReconcile(summary({ "2002": 60_000 }));
    m.onReconcileFailed("periodic");
    expect((await driftSeconds(registry))["bra-win/NO"]).toBe(60);
    m.close();
  });
});
