import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { EMPTY_ACCOUNT, type FeeAmount } from "../../../src/execution/inventory-math.js";
import { fill, TOKEN } from "./reconcile-support.js";

const SH = 1_000_000n;

/*
 * compact(horizon) bounds the inventory's memory: the entries stamped before the horizon are folded
 * into the token's base and forgotten. These tests pin down that it changes no account, that what it
 * forgets is really gone, and the premise it relies on: every fill arrives (first time) within a
 * bounded delay, so a copy stamped before the floor is a duplicate and is refused.
 */

describe("Inventory.compact", () => {
  it("folds old entries into the base without changing any account, and forgets them", () => {
    const inv = new Inventory();
    inv.applyFill(
      fill({ tradeId: "1", orderId: "a", side: "buy", priceMicro: 400_000, sizeMicro: 10n * SH, tsMs: 10 }),
    );
    inv.applyFill(
      fill({ tradeId: "2", orderId: "b", side: "sell", priceMicro: 600_000, sizeMicro: 4n * SH, tsMs: 20 }),
    );
    inv.correct(TOKEN, 5n * SH, 25, 500_000);
    inv.applyFill(
      fill({ tradeId: "3", orderId: "c", side: "buy", priceMicro: 500_000, sizeMicro: 1n * SH, tsMs: 30 }),
    );
    const before = inv.account(TOKEN);
    expect(inv.compact(26)).toBe(3); // two fills and the correction
    expect(inv.account(TOKEN)).toEqual(before);
    expect(inv.windowSize).toBe(1);
    expect(inv.hasFill("1", "a")).toBe(false);
    expect(inv.hasFill("3", "c")).toBe(true);
    expect(inv.fillCount).toBe(3);
    // A copy of a compacted fill (stamped before the floor) is refused: it was applied already.
    expect(
      inv.applyFill(
        fill({ tradeId: "1", orderId: "a", side: "buy", priceMicro: 400_000, sizeMicro: 10n * SH, tsMs: 10 }),
      ),
    ).toBe(false);
    expect(inv.late).toBe(1);
    expect(inv.account(TOKEN)).toEqual(before);
    // A fill inside the window, even out of order, still folds in canonical order.
    inv.applyFill(
      fill({ tradeId: "4", orderId: "d", side: "sell", priceMicro: 700_000, sizeMicro: 1n * SH, tsMs: 27 }),
    );
    const truth = new Inventory();
    for (const f of [
      fill({ tradeId: "1", orderId: "a", side: "buy", priceMicro: 400_000, sizeMicro: 10n * SH, tsMs: 10 }),
      fill({ tradeId: "2", orderId: "b", side: "sell", priceMicro: 600_000, sizeMicro: 4n * SH, tsMs: 20 }),
      fill({ tradeId: "3", orderId: "c", side: "buy", priceMicro: 500_000, sizeMicro: 1n * SH, tsMs: 30 }),
      fill({ tradeId: "4", orderId: "d", side: "sell", priceMicro: 700_000, sizeMicro: 1n * SH, tsMs: 27 }),
    ])
      truth.applyFill(f);
    truth.correct(TOKEN, 5n * SH, 25, 500_000);
    expect(inv.account(TOKEN)).toEqual(truth.account(TOKEN));
  });

  it("never moves the floor back, and keeps a seeded base under the compacted entries", () => {
    const inv = new Inventory();
    const seed = { ...EMPTY_ACCOUNT, sizeMicro: 3n * SH, costPico: 3n * SH * 500_000n, realisedPico: 7n };
    inv.seed(TOKEN, seed);
    inv.applyFill(
      fill({ tradeId: "1", orderId: "a", side: "sell", priceMicro: 600_000, sizeMicro: 1n * SH, tsMs: 10 }),
    );
    const acc = inv.account(TOKEN);
    expect(inv.compact(100)).toBe(1);
    expect(inv.compact(50)).toBe(0);
    expect(inv.account(TOKEN)).toEqual(acc);
    expect(() => inv.seed(TOKEN, EMPTY_ACCOUNT)).toThrow(/seeded before its first fill/);
    expect(inv.applyFill(fill({ tradeId: "2", orderId: "b", tsMs: 60 }))).toBe(false); // before the floor (100)
  });

  it("keeps a fee that came before its fill for one compaction period, then drops it", () => {
    const usdc: FeeAmount = { asset: "usdc", amountMicro: 50_000n };
    const inv = new Inventory();
    inv.setFee("1", "a", usdc);
    inv.setFee("2", "b", usdc);
    inv.compact(5);
    inv.applyFill(fill({ tradeId: "1", orderId: "a", side: "sell", tsMs: 10 }));
    expect(inv.account(TOKEN).feesPico).toBe(50_000n * 1_000_000n); // survived one compaction
    inv.compact(8);
    inv.applyFill(fill({ tradeId: "2", orderId: "b", side: "sell", tsMs: 20 }));
    expect(inv.account(TOKEN).feesPico).toBe(50_000n * 1_000_000n); // the second one was dropped
  });

  it("holds only the window however many fills went through", () => {
    const inv = new Inventory();
    let peak = 0;
    for (let i = 0; i < 30_000; i++) {
      inv.applyFill(
        fill({
          tradeId: String(i),
          orderId: `o${i % 7}`,
          side: i % 2 === 0 ? "buy" : "sell",
          sizeMicro: SH,
          tsMs: i,
        }),
      );
      if (i % 1_000 === 999) inv.compact(i - 2_000);
      peak = Math.max(peak, inv.windowSize);
    }
    expect(inv.fillCount).toBe(30_000);
    expect(peak).toBeLessThanOrEqual(3_000);
    expect(inv.account(TOKEN).sizeMicro).toBe(0n);
  });
});

// Random histories delivered late by up to MAX_DELAY (first copies) and duplicated up to 3× later,
// with compactions at random instants whose horizon trails the delivery clock by MAX_DELAY: the
// accounts must equal the uncompacted fold of every distinct fill and fee.
const MAX_DELAY = 20;
const rowArb = fc.record({
  token: fc.constantFrom("A", "B"),
  buy: fc.boolean(),
  price: fc.integer({ min: 1, max: 999 }).map((c) => c * 1_000),
  size: fc.bigInt({ min: 1n, max: 50_000_000n }),
  ts: fc.integer({ min: 0, max: 200 }),
  delay: fc.integer({ min: 0, max: MAX_DELAY }),
  dupDelay: fc.option(fc.integer({ min: 0, max: 3 * MAX_DELAY }), { nil: undefined }),
  fee: fc.option(fc.bigInt({ min: 0n, max: 200_000n }), { nil: undefined }),
});

describe("Inventory.compact properties", () => {
  it("late and duplicated deliveries with compactions give the accounts of the whole history", () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 10 }),
        (rows, compactAt) => {
          type Ev = { at: number; run: (inv: Inventory) => void };
          const evs: Ev[] = [];
          const truth = new Inventory();
          rows.forEach((r, i) => {
            const f: Fill = {
              tradeId: String(i),
              orderId: `o${i % 4}`,
              clientOrderId: undefined,
              tokenId: r.token,
              side: r.buy ? "buy" : "sell",
              priceMicro: r.price,
              sizeMicro: r.size,
              tsMs: r.ts,
            };
            const fee: FeeAmount | undefined =
              r.fee === undefined
                ? undefined
                : { asset: r.buy ? "shares" : "usdc", amountMicro: r.fee > r.size ? r.size : r.fee };
            truth.applyFill(f);
            if (fee !== undefined) truth.setFee(f.tradeId, f.orderId, fee);
            const arrive = r.ts + r.delay;
            evs.push({
              at: arrive,
              run: (inv) => {
                inv.applyFill(f);
                if (fee !== undefined) inv.setFee(f.tradeId, f.orderId, fee);
              },
            });
            if (r.dupDelay !== undefined)
              evs.push({ at: r.ts + r.dupDelay, run: (inv) => void inv.applyFill(f) });
          });
          for (const c of compactAt)
            evs.push({ at: c + 0.5, run: (inv) => void inv.compact(c + 0.5 - MAX_DELAY - 1) });
          evs.sort((a, b) => a.at - b.at);
          const inv = new Inventory();
          for (const e of evs) e.run(inv);
          for (const t of ["A", "B"]) expect(inv.account(t)).toEqual(truth.account(t));
          expect(inv.fillCount).toBe(truth.fillCount);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("Inventory.lastFillMs: a token's latest applied fill (the drift check's settling window)", () => {
  it("is the latest match time of an applied fill, kept past compaction; duplicates and late fills do not move it", () => {
    const inv = new Inventory();
    expect(inv.lastFillMs(TOKEN)).toBeUndefined();
    inv.applyFill(fill({ tradeId: "t2", orderId: "o", tsMs: 5_000 }));
    inv.applyFill(fill({ tradeId: "t1", orderId: "o", tsMs: 3_000 })); // out of order: still 5000
    expect(inv.lastFillMs(TOKEN)).toBe(5_000);
    inv.correct(TOKEN, 0n, 9_000); // a correction is no fill
    expect(inv.lastFillMs(TOKEN)).toBe(5_000);
    inv.compact(10_000);
    expect(inv.lastFillMs(TOKEN)).toBe(5_000);
    expect(inv.applyFill(fill({ tradeId: "t3", orderId: "o", tsMs: 8_000 }))).toBe(false); // late
    expect(inv.lastFillMs(TOKEN)).toBe(5_000);
    expect(inv.lastFillMs("other")).toBeUndefined();
  });
});
