import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import type { PositionsAt } from "../../../src/engine/ports.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { weiToString } from "../../../src/venue/wire.js";
import { parseExposition, sumOf } from "../observability/exposition.js";
import { Harness } from "./support/harness.js";

/*
 * A correction ends the token's drift run. The prior check's drifts carried the corrected one, so a
 * fresh fill still settling at the next check continued the run from its old start: the gauge read
 * 1020 s and MmPositionDriftLasting kept firing on a token the reconciler had just corrected (on a
 * busy token, the one the alert is for, until some check happened to find it agreeing).
 */
const PERIOD_MS = 30_000;

describe("drift run after a correction", () => {
  it("a correction ends the token's run: the next drift starts at 0", async () => {
    const h = new Harness({ options: { reconcileIntervalMs: PERIOD_MS, reconcileDriftSettleMs: PERIOD_MS } });
    const [yes, no] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    h.crowdQuote(no, "0.48", "0.52");
    const lag = new Map<string, bigint>();
    const real = h.exchange.positionsAt.bind(h.exchange);
    h.exchange.positionsAt = async (): Promise<PositionsAt> => {
      const r = await real();
      return {
        ...r,
        positions: r.positions.map((p) => {
          const l = lag.get(p.tokenId) ?? 0n;
          return l === 0n ? p : { ...p, quantity: weiToString(toWei(p.quantity, "qty") - l) };
        }),
      };
    };
    await h.engine.start();
    await h.run();
    const registry = new Registry();
    const metrics = createMetrics({ registry, clock: h.clock, defaultMetrics: false });
    metrics.registerMarkets(h.markets);
    let fed = 0;
    const outcome = h.markets.find((m) => m.tokenId === yes)?.outcome ?? "";
    const period = async () => {
      await h.run(PERIOD_MS);
      const runs = h.eventsOf("reconcile");
      for (const e of runs.slice(fed)) metrics.onEngineEvent(e);
      fed = runs.length;
      const f = parseExposition(await registry.metrics());
      return {
        seconds: sumOf(f, "mm_reconcile_position_drift_seconds", { outcome }),
        corrections: runs.at(-1)?.summary.corrections.length ?? 0,
      };
    };
    // 16 minutes of a drift whose figures change at every check: never corrected, the run grows.
    let last = { seconds: 0, corrections: 0 };
    for (let k = 1; k <= 33; k++) {
      lag.set(yes, BigInt(k) * 1_000_000n);
      last = await period();
      expect(last.corrections).toBe(0);
    }
    expect(last.seconds).toBeGreaterThanOrEqual(900); // MmPositionDriftLasting fires
    // A quiet spell: the same figures twice, settled: the reconciler corrects the token.
    let corrected = false;
    for (let k = 0; k < 3 && !corrected; k++) corrected = (await period()).corrections > 0;
    expect(corrected).toBe(true);
    // The token now agrees with the exchange (inventory was set to its figure). At the next check
    // a fresh fill is still settling: a new drift, not the corrected one going on.
    lag.set(yes, 40_000_000n);
    const after = await period();
    expect(after.corrections).toBe(0);
    expect(after.seconds).toBe(0);
    metrics.close();
  });
});
