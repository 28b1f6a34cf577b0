import { describe, expect, it } from "vitest";
import { Accountant } from "../../../src/backtest/report/accountant.js";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import { parseMetric } from "../../../src/backtest/sweep/metric.js";
import { rankPoints } from "../../../src/backtest/sweep/rank.js";
import { fillsOf, world } from "./support/mirror-world.js";
import { fakeWorld, makerFill, TOKEN, usdc } from "./support/recorder-world.js";

/**
 * The replay's JSON summary figure by figure against a tiny run computed by hand: the Recorder
 * (marks, equity curve, drawdown, Sharpe grid, inventory, uptime, markouts) and buildRunSummary
 * on a hand-written session fake that carries only what the Recorder listens to.
 */

const COUNTS = noRequests();

const REPORT = { sharpeIntervalMs: 60_000, markoutsMs: [1_000, 10_000, 60_000] };

describe("the replay summary against a run computed by hand", () => {
  it("gives every figure of README's list exactly", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, REPORT, 0);
    w.join(0, "buy");
    w.book(0, 490_000, 510_000); // mid 0.50
    w.join(5_000, "sell");
    // Maker buy 10 @ 0.49 (pays 4.9): q 10, cost 4.9.
    w.fill(makerFill(10_000, "buy", 490_000n, 10_000_000n));
    w.leave(10_000, "buy");
    w.book(20_000, 510_000, 530_000); // mid 0.52
    // Taker sell 4 @ 0.51, fee 0.02 USDC: cash +2.02; closes 4 of 10 at cost 1.96 → realised 0.06.
    w.fill({
      tsMs: 30_000,
      side: "sell",
      role: "taker",
      price: 510_000n,
      quantity: 4_000_000n,
      notional: 2_040_000n,
      fee: usdc(20_000n),
    });
    w.join(40_000, "buy");
    w.leave(90_000, "sell");
    w.book(100_000, 450_000, 470_000); // mid 0.46
    // Maker buy 2 @ 0.45 (pays 0.9): q 8, cost 3.84, cash −3.78.
    w.fill(makerFill(175_000, "buy", 450_000n, 2_000_000n));
    w.leave(175_000, "buy");
    w.book(180_000, 450_000, 470_000);
    const s = buildRunSummary(rec.close(180_000), [TOKEN], COUNTS);

    // total = cash + q·mark = −3.78 + 8 × 0.46 = −0.10 = realised 0.06 + unrealised (3.68 − 3.84).
    expect(s.pnl).toEqual({ total: "-0.1", realised: "0.06", unrealised: "-0.16", cash: "-3.78" });
    expect(s.fees).toEqual({ usdc: "0.02", shares: "0", value: "0.02" });
    expect(s.fills).toEqual({
      count: 3,
      maker: { count: 2, volume: "12", notional: "5.8" },
      taker: { count: 1, volume: "4", notional: "2.04" },
    });
    // Σ q·dt = 10 × 20 s + 6 × 145 s + 8 × 5 s = 1110 share·s over 180 s.
    expect(s.inventory).toEqual([{ tokenId: "7", final: "8", mean: "6.166667", maxAbs: "10" }]);
    // Equity 0 → 0.10 (t 10) → 0.30 (t 20, the peak) → 0.24 → −0.12 (t 100, the trough) → −0.10.
    expect(s.drawdown).toEqual({ max: "0.42" });
    // Grid 60, 120, 180 s: equity 0.24, −0.12, −0.10 → increments 0.24, −0.36, 0.02.
    const xs = [0.24, -0.36, 0.02];
    const mean = (0.24 - 0.36 + 0.02) / 3;
    const std = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / 2);
    expect(s.sharpe.intervalMs).toBe(60_000);
    expect(s.sharpe.samples).toBe(3);
    expect(s.sharpe.perInterval).toBeCloseTo(mean / std, 6);
    expect(s.sharpe.perInterval).toBe(-0.109817); // −(1/30) / √(0.2764 / 3)
    expect(s.sharpe.annualised).toBeCloseTo((mean / std) * Math.sqrt(525_600), 5);
    // Both sides rested over [5, 10) s and [40, 90) s: 55 s of 180 s.
    expect(s.quoteUptime).toBe(0.305556);
    // 1 s: +0.01 × 10 − 0.01 × 4 + 0.01 × 2 = 0.08 over 16 shares. 10 s and 60 s: the buy at 0.49
    // meets 0.52 (the frame at exactly t + 10 s counts), the sell −0.04; the last fill is unresolved.
    expect(s.markouts).toEqual([
      { horizonMs: 1_000, fills: 3, unresolved: 0, perShare: "0.005", total: "0.08" },
      { horizonMs: 10_000, fills: 2, unresolved: 1, perShare: "0.018571", total: "0.26" },
      { horizonMs: 60_000, fills: 2, unresolved: 1, perShare: "0.018571", total: "0.26" },
    ]);
    expect(s.tokens[0]).toMatchObject({ mark: "0.46", position: "8" });
  });

  it("marks a resolved market's token at its payout, whatever its book shows later", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, REPORT, 0);
    w.book(0, 490_000, 510_000);
    w.fill(makerFill(1_000, "buy", 490_000n, 10_000_000n));
    w.book(2_000, 600_000, 620_000); // mid 0.61
    w.resolve(3_000, 1_000_000); // YES wins: 1 USDC a share
    w.book(4_000, 10_000, 20_000); // a stale book after the resolution
    const s = buildRunSummary(rec.close(5_000), [TOKEN], COUNTS);
    // 10 × (1 − 0.49), not 10 × (0.015 − 0.49) at the last mid.
    expect(s.pnl).toEqual({ total: "5.1", realised: "0", unrealised: "5.1", cash: "-4.9" });
    expect(s.tokens[0]).toMatchObject({ mark: "1", position: "10" });
    expect(s.drawdown).toEqual({ max: "0" });
  });

  it("has no Sharpe ratio for a window shorter than two sampling intervals", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, REPORT, 0);
    w.book(0, 490_000, 510_000);
    w.fill(makerFill(1_000, "buy", 490_000n, 1_000_000n));
    w.book(30_000, 500_000, 520_000);
    w.book(90_000, 520_000, 540_000);
    const s = buildRunSummary(rec.close(119_999), [TOKEN], COUNTS);
    // One grid point (60 s) → one increment: no sample standard deviation, no ratio.
    expect(s.sharpe).toEqual({ intervalMs: 60_000, samples: 1, perInterval: null, annualised: null });
  });

  it("marks a position the book never priced two-sided at the last trade, not the first", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, REPORT, 0);
    w.book(0, 400_000, undefined); // bids only
    w.fill({
      tsMs: 1_000,
      side: "buy",
      role: "taker",
      price: 400_000n,
      quantity: 1_000_000n,
      notional: 400_000n,
      fee: usdc(0n),
    });
    w.book(2_000, 300_000, undefined);
    w.fill({
      tsMs: 3_000,
      side: "buy",
      role: "taker",
      price: 300_000n,
      quantity: 1_000_000n,
      notional: 300_000n,
      fee: usdc(0n),
    });
    const s = buildRunSummary(rec.close(4_000), [TOKEN], COUNTS);
    // q 2 at the last trade 0.30: −0.70 + 0.60 = −0.10 (the first trade's 0.40 would say +0.10).
    expect(s.tokens[0]?.mark).toBe("0.3");
    expect(s.pnl.total).toBe("-0.1");
    // Once the book is two-sided its mid is the mark, whatever trades follow.
    w.book(5_000, 300_000, 320_000);
    expect(rec.mid2(TOKEN.tokenId)).toBe(620_000n);
  });
});

describe("a sweep ranked smallest first", () => {
  it("still puts points without a value last (a null Sharpe is not the smallest)", () => {
    const point = (n: number, annualised: number | null) => ({
      point: n,
      params: { gamma: n },
      status: "ok" as const,
      summary: { sharpe: { annualised } },
    });
    const ranked = rankPoints(
      [point(1, null), point(2, 0.5), point(3, -1), point(4, 0.5)],
      parseMetric("sharpe:asc", "replay"),
    );
    expect(ranked.map((r) => [r.point, r.value?.toFixed()])).toEqual([
      [3, "-1"],
      [2, "0.5"],
      [4, "0.5"],
      [1, undefined],
    ]);
  });
});

describe("maker and taker volume of an order that crossed in part", () => {
  it("counts the crossing part as taker volume and the rest, filled later while resting, as maker", () => {
    const w = world(0, { type: "conservative", trades: "recorded" });
    w.snapshot([["0.49", "100"]], [["0.50", "3"]]);
    w.bot("buy", "0.50", "5"); // takes the 3 offered, rests 2 at 0.50 (alone at that price)
    w.print("sell", "0.50", "2");
    expect(fillsOf(w)).toEqual(["taker buy 500000 3000000", "maker buy 500000 2000000"]);
    const a = new Accountant();
    for (const f of w.fills) {
      a.apply({
        tsMs: f.tsMs,
        tokenId: f.tokenId,
        tradeId: f.tradeId,
        orderId: f.orderId,
        clientOrderId: f.clientOrderId,
        side: f.side,
        role: f.role,
        price: f.price,
        quantity: f.quantity,
        notional: (f.price * f.quantity) / 1_000_000n,
        fee: f.fee,
      });
    }
    expect([a.taker, a.maker]).toEqual([
      { count: 1, quantity: 3_000_000n, notional: 1_500_000n },
      { count: 1, quantity: 2_000_000n, notional: 1_000_000n },
    ]);
  });
});
