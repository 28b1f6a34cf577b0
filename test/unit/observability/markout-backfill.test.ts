import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { BookTracker } from "../../../src/book/tracker.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { Fill } from "../../../src/core/trading.js";
import { createMetrics, type FillSource } from "../../../src/observability/metrics.js";
import { parseExposition, sumOf } from "./exposition.js";

const T0 = 1_700_000_000_000;

/**
 * A fill the reconcile backfills from GET /api/me/trades (source "backfill") is heard of a reconcile
 * period (30 s by default) or a whole disconnection after it happened. Its markouts are timed from the
 * fill, not from its receipt: a horizon already past is counted missing, never sampled "now" under a
 * 1 s label. Stream fills stay timed from receipt (their tsMs is the exchange's clock).
 */
function setup() {
  const clock = new SimClock(T0);
  const registry = new Registry();
  const metrics = createMetrics({ registry, clock, defaultMetrics: false });
  metrics.registerMarkets([{ tokenId: "1001", marketId: "m1", outcome: "YES" }]);
  const tracker = new BookTracker({
    clock,
    port: { requestSnapshot: () => true },
    config: { stall: { enabled: false } },
  });
  metrics.watchBookTracker(tracker);
  let seq = 0;
  const quote = (bid: string, ask: string) => {
    seq++;
    tracker.onEvent({
      type: "book_snapshot",
      tokenId: "1001",
      seq,
      bids: [{ price: bid, size: "10" }],
      asks: [{ price: ask, size: "10" }],
    });
  };
  const fill = (id: string, tsMs: number, source: FillSource) => {
    const f: Fill = {
      tradeId: id,
      orderId: `o-${id}`,
      clientOrderId: `c-${id}`,
      tokenId: "1001",
      side: "buy",
      priceMicro: 410_000,
      sizeMicro: 10_000_000n,
      tsMs,
    };
    metrics.listener({ type: "fill", atMs: clock.now(), fill: f, source, positionMicro: 0n, pnlMicro: 0n });
  };
  const scrape = async () => parseExposition(await registry.metrics());
  return { clock, metrics, quote, fill, scrape };
}

const markouts = (f: Awaited<ReturnType<ReturnType<typeof setup>["scrape"]>>, horizon: string) => ({
  count: sumOf(f, "mm_fill_markout_usdc_count", { horizon }),
  sum: sumOf(f, "mm_fill_markout_usdc_sum", { horizon }),
  missing: sumOf(f, "mm_fill_markouts_missing_total", { horizon }),
});

describe("markouts of backfilled fills", () => {
  it("does not record a 1 s markout, read 30 s after the fill, for a fill backfilled 30 s late", async () => {
    const { clock, metrics, quote, fill, scrape } = setup();
    quote("0.40", "0.42");
    // The fill happened at T0; the reconcile finds it 30 s later, after the market moved to 0.61.
    clock.advanceBy(30_000);
    quote("0.60", "0.62");
    fill("t1", T0, "backfill");
    clock.advanceBy(1_000);
    let f = await scrape();
    // Before the fix: one +0.20 "1 s markout" that was really a 31 s one.
    expect(markouts(f, "1s")).toEqual({ count: 0, sum: 0, missing: 1 });
    expect(markouts(f, "10s")).toEqual({ count: 0, sum: 0, missing: 1 });
    // The 60 s horizon is still ahead: read at T0 + 60 s (30 s after receipt), not at receipt + 60 s.
    quote("0.70", "0.72");
    clock.advanceTo(T0 + 60_000);
    quote("0.90", "0.92");
    f = await scrape();
    expect(markouts(f, "60s")).toMatchObject({ count: 1, missing: 0 });
    expect(markouts(f, "60s").sum).toBeCloseTo(0.3, 9); // mid 0.71 − 0.41
    expect(metrics.pendingMarkouts).toBe(0);
    metrics.close();
  });

  it("keeps a stream fill timed from its receipt, whatever its exchange timestamp says", async () => {
    const { clock, metrics, quote, fill, scrape } = setup();
    quote("0.40", "0.42");
    clock.advanceBy(30_000);
    // tsMs 30 s behind our clock (skew, or a slow stream): still a live fill, read 1 s after receipt.
    fill("t1", T0, "stream");
    clock.advanceBy(1_000);
    const f = await scrape();
    expect(markouts(f, "1s")).toMatchObject({ count: 1, missing: 0 });
    expect(markouts(f, "1s").sum).toBeCloseTo(0, 9);
    metrics.close();
  });

  it("moves mm_fill_last_timestamp_seconds only forward, to when a backfilled fill happened", async () => {
    const { clock, metrics, fill, scrape } = setup();
    const last = async () => sumOf(await scrape(), "mm_fill_last_timestamp_seconds");
    expect(await last()).toBe(T0 / 1_000); // the start time until the first fill
    clock.advanceTo(T0 + 30_000);
    fill("s1", T0 + 29_000, "stream");
    expect(await last()).toBe((T0 + 30_000) / 1_000); // a stream fill: its receipt
    clock.advanceTo(T0 + 40_000);
    fill("b1", T0 + 10_000, "backfill"); // older than the last fill seen: no move back
    expect(await last()).toBe((T0 + 30_000) / 1_000);
    clock.advanceTo(T0 + 70_000);
    fill("b2", T0 + 50_000, "backfill"); // newer: when it happened, not when the reconcile found it
    expect(await last()).toBe((T0 + 50_000) / 1_000);
    fill("b3", T0 + 90_000, "backfill"); // dated ahead of our clock: capped at now
    expect(await last()).toBe((T0 + 70_000) / 1_000);
    metrics.close();
  });
});
