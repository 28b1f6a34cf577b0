import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { toWei } from "../../../src/core/wei.js";
import type { PositionsAt } from "../../../src/engine/ports.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { weiToString } from "../../../src/venue/wire.js";
import { parseExposition, sumOf } from "../observability/exposition.js";
import { Harness } from "./support/harness.js";

/*
 * How long each token's position has disagreed with the exchange's at every check, as the engine
 * measures it (on its injected clock, between its own reconciles) and mm_reconcile_position_drift_seconds
 * exports it. MmPositionDriftLasting fires at 900 s of it. On a busy bot a fill is settling on some
 * token at every check: the count of drifting tokens (mm_reconcile_position_drifts) is above 0 at
 * every check though no drift lasts, and the alert once built on that count fired; per token, a
 * settling fill's run ends at the first check after its settlement.
 */

const PERIOD_MS = 30_000;

/** An engine on one market whose exchange positions lag by `lag` shares on chosen tokens. */
async function lagged() {
  const h = new Harness({ options: { reconcileIntervalMs: PERIOD_MS, reconcileDriftSettleMs: PERIOD_MS } });
  const [yes, no] = h.tokens();
  h.crowdQuote(yes, "0.48", "0.52");
  h.crowdQuote(no, "0.48", "0.52");
  const lag = new Map<string, bigint>(); // token → micro-shares the exchange does not show yet
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
  /** One reconcile period later: the engine's reconciles fed to the metrics, then scraped. */
  const period = async () => {
    await h.run(PERIOD_MS);
    const runs = h.eventsOf("reconcile");
    for (const e of runs.slice(fed)) metrics.onEngineEvent(e);
    expect(runs.length).toBeGreaterThan(fed); // a check in every period
    fed = runs.length;
    const f = parseExposition(await registry.metrics());
    const label = (token: string) => h.markets.find((m) => m.tokenId === token);
    const seconds = (token: string) => {
      const outcome = label(token)?.outcome ?? "";
      // A series for every traded token, 0 while it agrees: a panel or rule never reads a gap.
      const series = f
        .get("mm_reconcile_position_drift_seconds")
        ?.samples.filter((x) => x.labels.outcome === outcome);
      expect(series, `drift seconds of ${outcome}`).toHaveLength(1);
      return sumOf(f, "mm_reconcile_position_drift_seconds", { outcome });
    };
    return {
      drifting: sumOf(f, "mm_reconcile_position_drifts"),
      yes: seconds(yes),
      no: seconds(no),
      summary: runs.at(-1)?.summary,
    };
  };
  return { h, yes, no, lag, period, close: () => metrics.close() };
}

describe("a token's drift run (mm_reconcile_position_drift_seconds)", () => {
  it("two tokens settling at alternate checks for 40 minutes: some token drifts at every check, neither runs", async () => {
    const { yes, no, lag, period, close } = await lagged();
    let longest = 0;
    for (let k = 0; k < 80; k++) {
      // A fill of one token is still settling at this check; the other's settled since the last.
      lag.clear();
      lag.set(k % 2 === 0 ? yes : no, 4_000_000n);
      const s = await period();
      expect(s.drifting).toBe(1); // the count the old rule watched: > 0 at every check
      longest = Math.max(longest, s.yes, s.no);
      expect(s.summary?.corrections).toEqual([]);
    }
    expect(longest).toBe(0);
    close();
  });

  it("a token drifting at every check, its figures changing, counts up to 15 minutes; a clean check zeroes it", async () => {
    const { h, yes, lag, period, close } = await lagged();
    const seen: number[] = [];
    for (let k = 1; k <= 31; k++) {
      // Never the same figures twice running: never corrected, however long it lasts.
      lag.set(yes, BigInt(k) * 1_000_000n);
      const s = await period();
      expect(s.no).toBe(0);
      seen.push(s.yes);
    }
    // Counted from the first check that saw it, in the engine's own time between its checks.
    expect(seen.slice(0, 3)).toEqual([0, 30, 60]);
    expect(seen.at(-1)).toBe(900);
    expect(h.eventsOf("reconcile").every((e) => e.summary.corrections.length === 0)).toBe(true);
    lag.clear();
    expect(await period()).toMatchObject({ yes: 0, no: 0, drifting: 0 });
    lag.set(yes, 1_000_000n);
    expect((await period()).yes).toBe(0); // a new run
    close();
  });

  it("a correction ends the token's run: the next drift starts at 0", async () => {
    // The corrected drift stayed the prior one, so a fresh fill settling at the next check carried
    // the run on from its old start and MmPositionDriftLasting kept firing on a corrected token.
    const { yes, lag, period, close } = await lagged();
    type Check = Awaited<ReturnType<typeof period>>;
    const corrections = (s: Check) => s.summary?.corrections.length ?? 0;
    // 16 minutes of a drift whose figures change at every check: never corrected, the run grows.
    let last: Check | undefined;
    for (let k = 1; k <= 33; k++) {
      lag.set(yes, BigInt(k) * 1_000_000n);
      last = await period();
      expect(corrections(last)).toBe(0);
    }
    expect(last?.yes).toBeGreaterThanOrEqual(900); // MmPositionDriftLasting fires
    // A quiet spell: the same figures twice, settled: the reconciler corrects the token.
    let corrected = false;
    for (let k = 0; k < 3 && !corrected; k++) corrected = corrections(await period()) > 0;
    expect(corrected).toBe(true);
    // The token now agrees with the exchange (inventory was set to its figure). At the next check
    // a fresh fill is still settling: a new drift, not the corrected one going on.
    lag.set(yes, 40_000_000n);
    const after = await period();
    expect(corrections(after)).toBe(0);
    expect(after.yes).toBe(0);
    close();
  });
});
