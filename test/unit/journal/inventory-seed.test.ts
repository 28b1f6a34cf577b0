import { describe, expect, it } from "vitest";
import { hasCode } from "../../../src/core/errors.js";
import type { Fill } from "../../../src/core/trading.js";
import { Inventory } from "../../../src/execution/inventory.js";
import { applyTrade, EMPTY_ACCOUNT, type FeeAmount } from "../../../src/execution/inventory-math.js";
import { fill } from "./support.js";

describe("Inventory.seed (restore) and onFee (journal)", () => {
  const seed = applyTrade(EMPTY_ACCOUNT, "buy", 470_000, 10_000_000n); // 10 shares at 0.47

  it("folds later fills on top of the seeded account, in order or not", () => {
    const inv = new Inventory();
    inv.seed("t1", seed);
    expect(inv.account("t1")).toEqual(seed);
    const late = fill({ tradeId: "a", side: "sell", priceMicro: 530_000, sizeMicro: 4_000_000n, tsMs: 20 });
    const early = fill({ tradeId: "b", side: "sell", priceMicro: 500_000, sizeMicro: 1_000_000n, tsMs: 10 });
    inv.applyFill(late);
    inv.applyFill(early); // out of order: the token re-folds, from the seed
    const expected = applyTrade(applyTrade(seed, "sell", 500_000, 1_000_000n), "sell", 530_000, 4_000_000n);
    expect(inv.account("t1")).toEqual(expected);
    // 1 × (0.50 − 0.47) + 4 × (0.53 − 0.47) = 0.27 USDC
    expect(expected.realisedPico).toBe(270_000_000_000n);
    expect(inv.realisedPico()).toBe(270_000_000_000n);
    expect(inv.position("t1")).toEqual({ tokenId: "t1", sizeMicro: 5_000_000n, costMicro: 2_350_000n });
  });

  it("refuses a seed after the token's first fill", () => {
    const inv = new Inventory();
    inv.applyFill(fill());
    let caught: unknown;
    try {
      inv.seed("t1", seed);
    } catch (err) {
      caught = err;
    }
    expect(hasCode(caught, "inventory_seed_late")).toBe(true);
  });

  it("reports each fee once it is attached to its fill, before or after the fill arrives", () => {
    const seen: [string, FeeAmount][] = [];
    const inv = new Inventory({ onFee: (f: Fill, fee) => seen.push([f.tradeId, fee]) });
    const usdc: FeeAmount = { asset: "usdc", amountMicro: 20_000n };
    inv.setFee("early", "o1", usdc); // the fill is not there yet: nothing to report
    expect(seen).toEqual([]);
    inv.applyFill(fill({ tradeId: "early" }));
    expect(seen).toEqual([["early", usdc]]);
    inv.applyFill(fill({ tradeId: "late" }));
    inv.setFee("late", "o1", usdc);
    inv.setFee("late", "o1", usdc); // unchanged: not again
    const changed: FeeAmount = { asset: "usdc", amountMicro: 30_000n };
    inv.setFee("late", "o1", changed);
    expect(seen).toEqual([
      ["early", usdc],
      ["late", usdc],
      ["late", changed],
    ]);
  });
});
