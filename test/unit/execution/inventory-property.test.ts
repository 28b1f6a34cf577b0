import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { Inventory } from "../../../src/execution/inventory.js";
import type { FeeAmount } from "../../../src/execution/inventory-math.js";

/*
 * Random fill histories over two tokens (with fees on some fills). Properties:
 * - no value leaks: per token, realised − fees = net cash flow + remaining cost basis, exactly;
 * - any permutation with duplicates, and fees arriving before or after their fills, gives the same accounts.
 */

const fillArb = fc.record({
  token: fc.constantFrom("A", "B"),
  buy: fc.boolean(),
  price: fc.integer({ min: 1, max: 999 }).map((c) => c * 1_000),
  size: fc.bigInt({ min: 1n, max: 50_000_000n }),
  ts: fc.integer({ min: 0, max: 30 }),
  fee: fc.option(fc.bigInt({ min: 0n, max: 200_000n }), { nil: undefined }),
  /** Mostly the spec's rule (buy → shares, sell → USDC), sometimes the other asset. */
  ruleAsset: fc.integer({ min: 0, max: 3 }).map((x) => x > 0),
});
const historyArb = fc.array(fillArb, { minLength: 1, maxLength: 40 });

type Gen = { fill: Fill; fee: FeeAmount | undefined };

type Row = typeof historyArb extends fc.Arbitrary<(infer R)[]> ? R : never;

function build(rows: Row[]): Gen[] {
  return rows.map((r, i) => ({
    fill: {
      tradeId: String(i),
      orderId: `o${i % 5}`,
      clientOrderId: undefined,
      tokenId: r.token,
      side: r.buy ? "buy" : "sell",
      priceMicro: r.price,
      sizeMicro: r.size,
      tsMs: r.ts,
    },
    fee:
      r.fee === undefined
        ? undefined
        : {
            asset: r.buy === r.ruleAsset ? "shares" : "usdc",
            amountMicro: r.buy && r.buy === r.ruleAsset && r.fee > r.size ? r.size : r.fee,
          },
  }));
}

describe("Inventory properties", () => {
  it("realised − fees = net cash + cost basis, exactly", () => {
    fc.assert(
      fc.property(historyArb, (rows) => {
        const inv = new Inventory();
        const cash = new Map<string, bigint>();
        for (const { fill, fee } of build(rows)) {
          inv.applyFill(fill);
          if (fee !== undefined) inv.setFee(fill.tradeId, fill.orderId, fee);
          const value = BigInt(fill.priceMicro) * fill.sizeMicro;
          const usdcFee = fee?.asset === "usdc" ? fee.amountMicro * 1_000_000n : 0n;
          const flow = (fill.side === "buy" ? -value : value) - usdcFee;
          cash.set(fill.tokenId, (cash.get(fill.tokenId) ?? 0n) + flow);
        }
        for (const [t, c] of cash) {
          const a = inv.account(t);
          expect(a.realisedPico - a.feesPico).toBe(c + a.costPico);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("shuffles, duplicates and early or late fees give the same accounts", () => {
    fc.assert(
      fc.property(
        historyArb.chain((rows) =>
          fc.tuple(
            fc.constant(rows),
            fc.shuffledSubarray([...rows.keys(), ...rows.keys()], { minLength: rows.length * 2 }),
            fc.array(fc.boolean(), { minLength: rows.length, maxLength: rows.length }),
          ),
        ),
        ([rows, order, feeFirst]) => {
          const gens = build(rows);
          const truth = new Inventory();
          for (const g of gens) {
            truth.applyFill(g.fill);
            if (g.fee !== undefined) truth.setFee(g.fill.tradeId, g.fill.orderId, g.fee);
          }
          const noisy = new Inventory();
          gens.forEach((g, i) => {
            if (feeFirst[i] === true && g.fee !== undefined)
              noisy.setFee(g.fill.tradeId, g.fill.orderId, g.fee);
          });
          for (const i of order) noisy.applyFill((gens[i] as Gen).fill);
          gens.forEach((g, i) => {
            if (feeFirst[i] !== true && g.fee !== undefined)
              noisy.setFee(g.fill.tradeId, g.fill.orderId, g.fee);
          });
          for (const t of ["A", "B"]) expect(noisy.account(t)).toEqual(truth.account(t));
          expect(noisy.fillCount).toBe(truth.fillCount);
        },
      ),
      { numRuns: 300 },
    );
  });
});
