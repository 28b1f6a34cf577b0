import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Accountant, PICO } from "../../../src/backtest/report/accountant.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";

const u = (x: number): bigint => BigInt(Math.round(x * 1_000_000));

function fill(
  side: "buy" | "sell",
  price: number,
  qty: number,
  extra: Partial<BacktestFill> = {},
): BacktestFill {
  return {
    tsMs: 0,
    tokenId: "T",
    tradeId: "t",
    orderId: "o",
    clientOrderId: undefined,
    side,
    role: "maker",
    price: u(price),
    quantity: u(qty),
    notional: (u(price) * u(qty) + 999_999n) / 1_000_000n,
    fee: { asset: side === "buy" ? "shares" : "usdc", amount: 0n },
    ...extra,
  };
}

describe("Accountant", () => {
  it("books average-cost realised and unrealised PnL exactly (hand-checked)", () => {
    const a = new Accountant();
    a.apply(fill("buy", 0.4, 10));
    a.apply(fill("sell", 0.5, 4));
    const t = a.ledger("T");
    expect(t.q).toBe(u(6));
    expect(t.realised).toBe(400_000n * PICO); // 4 × (0.50 − 0.40)
    expect(t.cost).toBe(2_400_000n * PICO); // 6 × 0.40
    expect(a.cash).toBe(-2_000_000n);
    // At a mark of 0.45: unrealised 6 × 0.45 − 2.4 = 0.3; total = cash + q·mark = −2 + 2.7 = 0.7 = 0.4 + 0.3.
    expect(t.q * 450_000n - t.cost).toBe(300_000n * PICO);
  });

  it("closes through zero into a short at the trade's price", () => {
    const a = new Accountant();
    a.apply(fill("buy", 0.4, 10));
    a.apply(fill("sell", 0.5, 15));
    const t = a.ledger("T");
    expect(t.q).toBe(-u(5));
    expect(t.realised).toBe(1_000_000n * PICO);
    expect(t.cost).toBe(-2_500_000n * PICO);
    a.apply(fill("buy", 0.3, 5));
    expect(a.ledger("T")).toMatchObject({ q: 0n, cost: 0n, realised: 2_000_000n * PICO });
  });

  it("takes fees where they are paid: share fees shrink what a buy delivers, USDC fees what a sell pays", () => {
    const a = new Accountant();
    a.apply(fill("buy", 0.5, 10, { role: "taker", fee: { asset: "shares", amount: 25_000n } }));
    a.apply(fill("sell", 0.5, 5, { role: "taker", fee: { asset: "usdc", amount: 12_500n } }));
    expect(a.ledger("T").q).toBe(u(10) - 25_000n - u(5));
    expect(a.cash).toBe(-5_000_000n + 2_500_000n - 12_500n);
    expect(a.fees).toEqual({
      usdc: 12_500n,
      shares: 25_000n,
      valuePico: 12_500n * PICO + 25_000n * 500_000n,
    });
    expect(a.taker).toEqual({ count: 2, quantity: u(15), notional: 7_500_000n });
    expect(a.maker.count).toBe(0);
  });

  it("keeps realised − cost equal to the cash that moved, for any sequence of fills", () => {
    const arb = fc.array(
      fc.record({
        buy: fc.boolean(),
        price: fc.integer({ min: 1, max: 999_999 }),
        qty: fc.integer({ min: 1, max: 50_000_000 }),
        fee: fc.integer({ min: 0, max: 10_000 }),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 0, max: 1_000_000 }), (fills, mark) => {
        const a = new Accountant();
        let cash = 0n;
        let q = 0n;
        for (const f of fills) {
          const price = BigInt(f.price);
          const quantity = BigInt(f.qty);
          a.apply({
            ...fill(f.buy ? "buy" : "sell", 0, 0),
            price,
            quantity,
            notional: (price * quantity + 999_999n) / 1_000_000n,
            fee: { asset: f.buy ? "shares" : "usdc", amount: BigInt(f.fee) },
          });
          const notional = (price * quantity + 999_999n) / 1_000_000n;
          cash += f.buy ? -notional : notional - BigInt(f.fee);
          q += f.buy ? quantity - BigInt(f.fee) : -quantity;
        }
        const t = a.ledger("T");
        expect([a.cash, t.q]).toEqual([cash, q]);
        // realised − cost = cash, so total = cash + q·mark = realised + unrealised to the last pico-USDC.
        expect(t.realised - t.cost).toBe(cash * PICO);
        expect(q === 0n ? t.cost : 0n).toBe(0n);
        expect(t.realised + (t.q * BigInt(mark) - t.cost)).toBe(cash * PICO + q * BigInt(mark));
      }),
      { numRuns: 300 },
    );
  });
});
