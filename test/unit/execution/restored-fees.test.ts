import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fill } from "../../../src/core/trading.js";
import { Inventory } from "../../../src/execution/inventory.js";
import {
  applyTrade,
  EMPTY_ACCOUNT,
  type FeeAmount,
  type TokenAccount,
} from "../../../src/execution/inventory-math.js";
import { feeAlone, RestoredFees } from "../../../src/execution/restored-fees.js";

const fill = (over: Partial<Fill> = {}): Fill => ({
  tradeId: "t1",
  orderId: "o1",
  clientOrderId: undefined,
  tokenId: "A",
  side: "buy",
  priceMicro: 500_000,
  sizeMicro: 10_000_000n,
  tsMs: 1_000,
  ...over,
});

/** Total PnL at a mark: realised − fees + size × mark − cost (pico-USDC). */
const pnlAt = (a: TokenAccount, mark: bigint) =>
  a.realisedPico - a.feesPico + a.sizeMicro * mark - a.costPico;

const tradeArb = fc.record({
  buy: fc.boolean(),
  price: fc.integer({ min: 1, max: 999 }).map((c) => c * 1_000),
  size: fc.bigInt({ min: 1n, max: 50_000_000n }),
});
const feeArb = fc.record({
  asset: fc.constantFrom("shares" as const, "usdc" as const),
  amountMicro: fc.bigInt({ min: 0n, max: 60_000_000n }),
});

describe("feeAlone: a fee applied after its fill, on its own", () => {
  it("gives the size, fees and total PnL the fill would have given with its fee known", () => {
    fc.assert(
      fc.property(fc.array(tradeArb, { maxLength: 8 }), tradeArb, feeArb, (before, t, fee) => {
        let acc = EMPTY_ACCOUNT;
        for (const b of before) acc = applyTrade(acc, b.buy ? "buy" : "sell", b.price, b.size);
        const f = fill({ side: t.buy ? "buy" : "sell", priceMicro: t.price, sizeMicro: t.size });
        const known = applyTrade(acc, f.side, f.priceMicro, f.sizeMicro, fee);
        const later = feeAlone(applyTrade(acc, f.side, f.priceMicro, f.sizeMicro), f, fee, 1n);
        expect(later.sizeMicro).toBe(known.sizeMicro);
        expect(later.feesPico).toBe(known.feesPico);
        expect(later.feeSharesMicro).toBe(known.feeSharesMicro);
        // How PnL splits between realised and the basis may differ; the total, at any mark, does not.
        expect(later.realisedPico - later.costPico).toBe(known.realisedPico - known.costPico);
        expect(pnlAt(later, 420_000n)).toBe(pnlAt(known, 420_000n));
        // Taken back out, it leaves the account it found (in size, fees and total PnL).
        const undone = feeAlone(later, f, fee, -1n);
        const without = applyTrade(acc, f.side, f.priceMicro, f.sizeMicro);
        expect(undone.sizeMicro).toBe(without.sizeMicro);
        expect(undone.feesPico).toBe(without.feesPico);
        expect(pnlAt(undone, 420_000n)).toBe(pnlAt(without, 420_000n));
      }),
    );
  });
});

describe("RestoredFees", () => {
  function setup(fills: Fill[]) {
    const inv = new Inventory();
    for (const f of fills) {
      inv.seed(f.tokenId, applyTrade(inv.account(f.tokenId), f.side, f.priceMicro, f.sizeMicro));
    }
    const seen: [string, FeeAmount][] = [];
    const r = new RestoredFees(inv, fills, (f, fee) => seen.push([f.tradeId, fee]));
    return { inv, r, seen };
  }

  it("applies a restored fill's fee to its seeded account once, and corrects it when it changes", () => {
    const f = fill();
    const { inv, r, seen } = setup([f]);
    expect(r.awaits("t1", "o1")).toBe(true);
    expect(r.oldestAwaitedMs()).toBe(1_000);
    inv.applyFill(fill({ tradeId: "t2", tsMs: 2_000 })); // a fill of this session on top

    expect(r.setFee("t1", "o1", { asset: "shares", amountMicro: 50_000n })).toBe(true);
    expect(r.setFee("t1", "o1", { asset: "shares", amountMicro: 50_000n })).toBe(false);
    expect(inv.account("A")).toMatchObject({
      sizeMicro: 19_950_000n,
      feesPico: 25_000_000_000n,
      feeSharesMicro: 50_000n,
    });
    expect(r.sharesOut("A")).toBe(50_000n);
    expect(r.awaits("t1", "o1")).toBe(false);
    expect(r.oldestAwaitedMs()).toBeUndefined();

    // A corrected fee replaces the first one (never adds to it).
    expect(r.setFee("t1", "o1", { asset: "usdc", amountMicro: 30_000n })).toBe(true);
    expect(inv.account("A")).toMatchObject({
      sizeMicro: 20_000_000n,
      feesPico: 30_000_000_000n,
      feeSharesMicro: 0n,
    });
    expect(r.sharesOut("A")).toBe(0n);
    expect(seen.map(([t, fee]) => [t, fee.asset])).toEqual([
      ["t1", "shares"],
      ["t1", "usdc"],
    ]);
    // Any other trade is none of its business.
    expect(r.setFee("t9", "o1", { asset: "usdc", amountMicro: 1n })).toBe(false);
  });

  it("the backfill's view holds only trades stamped before the session, and expiry stops the wait", () => {
    const { r } = setup([fill(), fill({ tradeId: "t2", tsMs: 5_000 })]);
    const view = r.before(10_000);
    expect(view.holds("t1", "o1", 1_000)).toBe(true);
    // The same ids in this session (a paper mock that reuses its seeded ids): a new fill, not this one.
    expect(view.holds("t1", "o1", 10_000)).toBe(false);
    // …but the fill itself, seen on an exchange clock ahead of ours, still is.
    expect(r.before(500).holds("t1", "o1", 1_400)).toBe(true);
    expect(view.holds("t1", "o1", Number.NaN)).toBe(false);
    expect(view.holds("t3", "o1", 1_000)).toBe(false);

    expect(r.expire(5_000).map((f) => f.tradeId)).toEqual(["t1"]);
    expect(r.awaiting).toBe(1);
    expect(r.oldestAwaitedMs()).toBe(5_000);
    expect(view.holds("t1", "o1", 1_000)).toBe(false);
    expect(r.setFee("t1", "o1", { asset: "usdc", amountMicro: 1n })).toBe(false);
  });
});
