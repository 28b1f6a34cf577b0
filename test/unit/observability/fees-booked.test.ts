import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Fill } from "../../../src/core/trading.js";
import type { EngineEvent } from "../../../src/engine/engine-events.js";
import type { TradeRecord } from "../../../src/exchange/types.js";
import type { FeeAmount } from "../../../src/execution/inventory-math.js";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { Harness } from "../engine/support/harness.js";
import { parseExposition, sumOf } from "./exposition.js";

/*
 * mm_fill_fees_usdc_total counts the fees the engine booked (its `fee` events: user_fill carries no
 * fee; REST trades bring it after settlement), valued as the engine values them: a USDC fee as is,
 * a share fee at the fill's price. Not the spec's taker formula at fill time, which is wrong for a
 * maker fee, for a fee the exchange computed differently, and before the fee has settled at all.
 */

const T0 = 1_700_000_000_000;
const FEES = "mm_fill_fees_usdc_total";

async function fees(metrics: Metrics, labels: Record<string, string> = {}): Promise<number> {
  return sumOf(parseExposition(await metrics.registry.metrics()), FEES, labels);
}

describe("mm_fill_fees_usdc_total follows the engine's booked fees (real engine)", () => {
  /** Metrics fed every event the harness's engine emitted so far, in order, as its listener would be. */
  function metricsOf(h: Harness): Metrics {
    const m = createMetrics({ registry: new Registry(), clock: h.clock, defaultMetrics: false });
    m.registerMarkets(h.markets);
    for (const e of h.events) m.listener(e);
    return m;
  }

  it("a fill's USDC fee settling later: 0 until the engine books it, then exactly what it booked", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "buy", "0.53", "105"); // our resting ask at 0.53 sells 5: a maker fill
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    expect(h.eventsOf("fill")).toHaveLength(1);
    const before = metricsOf(h);
    expect(await fees(before)).toBe(0);
    before.close();

    settleWith(h, { fee: "0.1" }); // the exchange's fee for this SELL, though the market says 0 bps
    await h.engine.reconcileNow();
    await h.run();
    expect(h.engine.account(yes).feesPico).toBe(100_000_000_000n);
    const after = metricsOf(h);
    expect(await fees(after)).toBeCloseTo(0.1, 12);
    after.close();
  });

  it("a BUY fee paid in shares counts at the fill's price, as the engine books it", async () => {
    const h = new Harness();
    const [yes] = h.tokens();
    h.crowdQuote(yes, "0.48", "0.52");
    await h.engine.start();
    await h.run();
    h.take(yes, "sell", "0.47", "110"); // we buy 10 at 0.47
    h.crowdQuote(yes, "0.48", "0.52");
    await h.run();
    settleWith(h, { fee: "1" }); // 1 share
    await h.engine.reconcileNow();
    await h.run();
    expect(h.engine.account(yes).feesPico).toBe(470_000_000_000n);
    const m = metricsOf(h);
    expect(await fees(m)).toBeCloseTo(0.47, 12);
    m.close();
  });
});

describe("mm_fill_fees_usdc_total from fee events (roles, order, corrections)", () => {
  const fill = (cid: string, side: "buy" | "sell", priceMicro: number, shares: bigint): Fill => ({
    tradeId: `t-${cid}`,
    orderId: `o-${cid}`,
    clientOrderId: cid,
    tokenId: "1001",
    side,
    priceMicro,
    sizeMicro: shares * 1_000_000n,
    tsMs: T0,
  });
  const usdc = (micro: bigint): FeeAmount => ({ asset: "usdc", amountMicro: micro });
  const shares = (micro: bigint): FeeAmount => ({ asset: "shares", amountMicro: micro });

  function setup() {
    const clock = new SimClock(T0);
    const metrics = createMetrics({ registry: new Registry(), clock, defaultMetrics: false });
    metrics.registerMarkets([{ tokenId: "1001", marketId: "m1", outcome: "YES" }]); // a 200 bps market
    const on = (e: EngineEvent) => metrics.listener(e);
    const filled = (f: Fill, source: "stream" | "backfill" = "stream") =>
      on({ type: "fill", atMs: clock.now(), fill: f, source, positionMicro: 0n, pnlMicro: 0n });
    const fee = (f: Fill, amount: FeeAmount) => on({ type: "fee", atMs: clock.now(), fill: f, fee: amount });
    const reconciled = () =>
      on({
        type: "reconcile",
        atMs: clock.now(),
        summary: {
          reason: "periodic",
          atMs: clock.now(),
          tookMs: 1,
          updates: 0,
          orphans: 0,
          adopted: 0,
          pending: 0,
          backfilled: 0,
          drifts: [],
          corrections: [],
        },
      });
    return { metrics, filled, fee, reconciled };
  }

  it("a maker fee counts under maker; a taker fill counts nothing until its fee, then the fee booked", async () => {
    const { metrics, filled, fee } = setup();
    const maker = fill("mk", "sell", 400_000, 10n);
    metrics.onPlacementSending("mk");
    metrics.onPlacementAnswered("mk", 0n);
    filled(maker);
    const taker = fill("tk", "buy", 300_000, 10n);
    metrics.onPlacementSending("tk");
    filled(taker); // matched on arrival: taker
    metrics.onPlacementAnswered("tk", 10_000_000n);
    // The formula would say 0.0126 for the taker BUY (200 bps at 0.30) right now: nothing is booked yet.
    expect(await fees(metrics)).toBe(0);
    fee(maker, usdc(50_000n)); // a maker fee of 0.05 USDC
    fee(taker, shares(50_000n)); // 0.05 shares at 0.30 = 0.015 USDC (not the formula's 0.042 shares)
    expect(await fees(metrics, { market: "m1", role: "maker" })).toBeCloseTo(0.05, 12);
    expect(await fees(metrics, { market: "m1", role: "taker" })).toBeCloseTo(0.015, 12);
    metrics.close();
  });

  it("a fee that reached the engine before its fill counts once, under the fill's role", async () => {
    const { metrics, filled, fee } = setup();
    const f = fill("early", "sell", 600_000, 5n);
    metrics.onPlacementSending("early");
    metrics.onPlacementAnswered("early", 0n);
    // Inventory attaches a fee that waited for its fill inside applyFill: `fee` comes before `fill`.
    fee(f, usdc(20_000n));
    filled(f);
    expect(await fees(metrics, { role: "maker" })).toBeCloseTo(0.02, 12);
    expect(await fees(metrics)).toBeCloseTo(0.02, 12);
    metrics.close();
  });

  it("a backfilled fill's fee (set during the reconcile, its fill event after) counts under its role", async () => {
    const { metrics, filled, fee, reconciled } = setup();
    const f = fill("bf", "buy", 500_000, 4n);
    metrics.onPlacementSending("bf");
    metrics.onPlacementAnswered("bf", 4_000_000n);
    fee(f, usdc(12_000n));
    fee(fill("other", "sell", 500_000, 1n), usdc(1n)); // another trade's fee in the same backfill
    filled(f, "backfill");
    reconciled();
    expect(await fees(metrics, { role: "taker" })).toBeCloseTo(0.012, 12);
    metrics.close();
  });

  it("the fee of an earlier run's fill (no fill event this session) counts as unknown at the reconcile", async () => {
    const { metrics, fee, reconciled } = setup();
    fee(fill("old", "sell", 500_000, 2n), usdc(30_000n));
    reconciled();
    expect(await fees(metrics, { market: "m1", role: "unknown" })).toBeCloseTo(0.03, 12);
    metrics.close();
  });

  it("a corrected fee counts its increase; the same fee again or a lower one adds nothing", async () => {
    const { metrics, filled, fee } = setup();
    const f = fill("fix", "sell", 500_000, 2n);
    filled(f);
    fee(f, usdc(10_000n));
    fee(f, usdc(10_000n));
    fee(f, usdc(25_000n));
    fee(f, usdc(5_000n));
    expect(await fees(metrics)).toBeCloseTo(0.025, 12);
    fee(f, usdc(30_000n));
    expect(await fees(metrics)).toBeCloseTo(0.03, 12);
    metrics.close();
  });
});

/** From now on the exchange's trade rows carry `fields` (the fee of a settled trade). */
function settleWith(h: Harness, fields: Partial<TradeRecord>): void {
  const inner = h.exchange.trades.bind(h.exchange);
  h.exchange.trades = async (opts) => {
    const page = await inner(opts);
    return { ...page, trades: page.trades.map((t) => ({ ...t, ...fields })) };
  };
}
