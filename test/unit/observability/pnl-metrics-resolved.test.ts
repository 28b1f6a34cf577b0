import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../../src/observability/metrics.js";
import { Harness } from "../engine/support/harness.js";
import { buyTenYes, redeem, YES_WINS } from "../engine/support/settlement.js";
import { parseExposition, sumOf } from "../observability/exposition.js";

/**
 * README (Metrics): `mm_pnl_total_usdc` is realised − fees + unrealised, what the kill switch
 * watches. Once a market resolves with payouts, the engine pins its tokens' mark at the payout
 * (PositionBook.pin) and the total counts the bought shares at it; `mm_pnl_unrealised_usdc` marked
 * them at the book's mid, which the exchange emptied when it cancelled the market's orders: the
 * resolved position's value was in the total and in neither part. The gauge now reads the engine's
 * mark (found by review).
 */
describe("PnL metrics after a resolution with payouts", () => {
  it("realised − fees + unrealised of the market still adds up to the total the kill switch watches", async () => {
    const h = new Harness({ latencyMs: 50 });
    const [yes, no] = h.tokens(1);
    for (const t of [yes, no]) h.crowdQuote(t, "0.48", "0.52");
    const starting = h.engine.start();
    await h.run(500);
    await starting;
    await buyTenYes(h, yes);

    const m1 = h.markets[0]?.marketId ?? "";
    h.venue.setMarketStatus(m1, "RESOLVED", { cancelOpenOrders: true });
    h.engine.onMarketStatus(m1, "RESOLVED", YES_WINS);
    await h.run(500);
    redeem(h, [yes, no]);
    await h.run(61_000);
    const total = Number(h.engine.status().pnlMicro) / 1e6;
    expect(total).toBeCloseTo(5.3, 6); // 10 × (1 − 0.47), fees 0

    const registry = new Registry();
    const metrics = createMetrics({ registry, clock: h.clock, defaultMetrics: false });
    metrics.registerMarkets(h.markets);
    metrics.watchBookTracker(h.tracker);
    metrics.watchEngine(h.engine);
    const f = parseExposition(await registry.metrics());
    expect(sumOf(f, "mm_pnl_total_usdc")).toBeCloseTo(5.3, 6);
    const realised = sumOf(f, "mm_pnl_realised_usdc");
    const unrealised = sumOf(f, "mm_pnl_unrealised_usdc");
    const fees = sumOf(f, "mm_pnl_fees_usdc");
    expect(realised - fees + unrealised).toBeCloseTo(5.3, 6);
    metrics.close();
  });
});
