import { describe, expect, it } from "vitest";
import { ratio, units } from "../../../src/backtest/report/decimal.js";
import { EquityCurve } from "../../../src/backtest/report/equity.js";
import { InventoryStats } from "../../../src/backtest/report/inventory.js";
import { Markouts } from "../../../src/backtest/report/markouts.js";
import { QuoteUptime } from "../../../src/backtest/report/uptime.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";

const USDC2 = 2_000_000_000_000n; // one USDC in half-pico

describe("EquityCurve", () => {
  it("measures the largest fall from a running peak over the observations", () => {
    const e = new EquityCurve(0, 1_000);
    for (const [t, v] of [
      [10, 3n],
      [20, 5n],
      [30, 1n],
      [40, 6n],
      [50, 2n],
      [60, 7n],
    ] as const) {
      e.observe(t, v * USDC2);
    }
    expect(e.maxDrawdown2).toBe(4n * USDC2);
  });

  it("samples a fixed grid (the equity as of each point) for the Sharpe ratio", () => {
    const e = new EquityCurve(0, 10);
    e.observe(5, 1n * USDC2);
    e.observe(10, 9n * USDC2); // grid 10 → 9 (as of t = 10), grid 20 → 9
    e.observe(25, 4n * USDC2); // grid 30 → 4
    e.finish(30);
    // increments 9, 0, −5: mean 4/3, sample variance ((23/3)² + (4/3)² + (19/3)²) / 2 = 453/9
    const s = e.sharpe();
    expect(s.samples).toBe(3);
    expect(s.perInterval).toBeCloseTo(4 / 3 / Math.sqrt(453 / 9), 12);
    expect(s.annualised).toBeCloseTo((s.perInterval as number) * Math.sqrt((365 * 86_400_000) / 10), 6);
  });

  it("has no Sharpe ratio without variation", () => {
    const e = new EquityCurve(0, 10);
    e.finish(100);
    expect(e.sharpe()).toMatchObject({ samples: 10, perInterval: null, annualised: null });
  });
});

const fill = (tsMs: number, side: "buy" | "sell", price: bigint, quantity: bigint): BacktestFill => ({
  tsMs,
  tokenId: "T",
  tradeId: "t",
  orderId: "o",
  clientOrderId: undefined,
  side,
  role: "maker",
  price,
  quantity,
  notional: 0n,
  fee: { asset: "usdc", amount: 0n },
});

describe("Markouts", () => {
  it("marks each fill against the mid at t + h, signed, and leaves horizons past the data unresolved", () => {
    const m = new Markouts([1_000, 10_000]);
    let mid2 = 1_000_000n; // mid 0.50
    const at = () => mid2;
    m.add(fill(0, "buy", 490_000n, 10_000_000n));
    m.add(fill(500, "sell", 510_000n, 4_000_000n));
    m.resolve(900, at);
    mid2 = 1_040_000n; // 0.52 from t = 900
    m.resolve(1_600, at); // the buy's 1 s horizon (1000) and the sell's (1500) settle at 0.52
    mid2 = 960_000n;
    const [h1, h10] = m.finish(9_000, at);
    // buy: (0.52 − 0.49) × 10 = 0.3; sell: −(0.52 − 0.51) × 4 = −0.04
    expect(h1).toMatchObject({ horizonMs: 1_000, fills: 2, unresolved: 0, quantity: 14_000_000n });
    expect(units((h1?.value2 ?? 0n) * 5n, 13)).toBe("0.26");
    expect(ratio(h1?.value2 ?? 0n, 2n * 14_000_000n * 1_000_000n, 6)).toBe("0.018571");
    expect(h10).toMatchObject({ fills: 0, unresolved: 2 });
  });
});

describe("InventoryStats and QuoteUptime", () => {
  it("weights the position by time and tracks its largest size", () => {
    const s = new InventoryStats(0, ["T"]);
    s.update("T", 100, 5n);
    s.update("T", 300, -10n);
    const f = s.figures(400).get("T");
    expect(f).toEqual({ final: -10n, maxAbs: 10n, weighted: 5n * 200n - 10n * 100n, durationMs: 400 });
  });

  it("counts only the time with a resting order on both sides", () => {
    const q = new QuoteUptime(0, ["T"]);
    q.change("T", "buy", 1, 100);
    q.change("T", "sell", 1, 200);
    q.change("T", "sell", 1, 250);
    q.change("T", "sell", -1, 300);
    q.change("T", "buy", -1, 600);
    q.change("T", "buy", 1, 900);
    // Both sides from 200 to 600 (a sell stays after 300), and again from 900 (one sell still rests).
    expect(q.fractions(1_000).get("T")).toBeCloseTo(0.5, 12);
  });
});
