import { describe, expect, it } from "vitest";
import { takerFeeWei } from "../../../src/core/fees.js";
import { Inventory } from "../../../src/execution/inventory.js";
import {
  applyTrade,
  EMPTY_ACCOUNT,
  moveAtPrice,
  picoToMicro,
} from "../../../src/execution/inventory-math.js";
import { fill, TOKEN } from "./reconcile-support.js";

const USDC = 1_000_000_000_000n; // one USDC in pico
const SH = 1_000_000n; // one share in micro

describe("average-cost accounting (hand-computed)", () => {
  it("adds to the basis, then realises a partial close against the average cost", () => {
    const inv = new Inventory();
    inv.applyFill(
      fill({ tradeId: "1", orderId: "a", side: "buy", priceMicro: 400_000, sizeMicro: 10n * SH, tsMs: 1 }),
    );
    inv.applyFill(
      fill({ tradeId: "2", orderId: "a", side: "buy", priceMicro: 500_000, sizeMicro: 10n * SH, tsMs: 2 }),
    );
    inv.applyFill(
      fill({ tradeId: "3", orderId: "b", side: "sell", priceMicro: 600_000, sizeMicro: 5n * SH, tsMs: 3 }),
    );
    // avg 0.45; sold 5 @ 0.60 → +0.75; 15 left costing 6.75
    expect(inv.account(TOKEN)).toEqual({
      sizeMicro: 15n * SH,
      costPico: (675n * USDC) / 100n,
      realisedPico: (75n * USDC) / 100n,
      feesPico: 0n,
      feeSharesMicro: 0n,
    });
    expect(inv.unrealisedPico(TOKEN, 500_000)).toBe((75n * USDC) / 100n); // 15 × 0.50 − 6.75
    expect(inv.position(TOKEN)).toEqual({ tokenId: TOKEN, sizeMicro: 15n * SH, costMicro: 6_750_000n });
  });

  it("goes through zero: closes the long, opens a short at the fill price, closes it", () => {
    let a = moveAtPrice(EMPTY_ACCOUNT, 10n * SH, 400_000n); // long 10 @ 0.40
    a = moveAtPrice(a, -15n * SH, 500_000n); // close 10 (+1.00), short 5 @ 0.50
    expect(a).toMatchObject({ sizeMicro: -5n * SH, costPico: (-25n * USDC) / 10n, realisedPico: USDC });
    a = moveAtPrice(a, 5n * SH, 300_000n); // buy back 5 @ 0.30: +1.00
    expect(a).toMatchObject({ sizeMicro: 0n, costPico: 0n, realisedPico: 2n * USDC });
  });

  it("truncates only the partial-close share of the basis; the flat position realises its cash flow exactly", () => {
    let a = moveAtPrice(EMPTY_ACCOUNT, 1n, 4n); // cost 4 pico
    a = moveAtPrice(a, 2n, 3n); // size 3, cost 10
    a = moveAtPrice(a, -1n, 5n); // removes ⌊10/3⌋ = 3 → realised 2
    expect(a).toMatchObject({ sizeMicro: 2n, costPico: 7n, realisedPico: 2n });
    a = moveAtPrice(a, -2n, 5n); // removes the 7 left → realised 2 + 3
    expect(a).toMatchObject({ sizeMicro: 0n, costPico: 0n, realisedPico: 5n }); // = −4 − 6 + 5 + 10
  });

  it("a BUY-taker fee in shares: fewer shares arrive, the fee's value is booked as a fee", () => {
    const fee = takerFeeWei("buy", 200, 500_000n, 100n * SH); // 0.5 shares
    const a = applyTrade(EMPTY_ACCOUNT, "buy", 500_000, 100n * SH, { asset: "shares", amountMicro: fee });
    expect(a).toEqual({
      sizeMicro: 99_500_000n,
      costPico: (4975n * USDC) / 100n,
      realisedPico: 0n,
      feesPico: (25n * USDC) / 100n,
      feeSharesMicro: 500_000n,
    });
  });

  it("a SELL-taker fee in USDC is booked as a fee; realised PnL stays gross", () => {
    let a = applyTrade(EMPTY_ACCOUNT, "buy", 500_000, 100n * SH);
    const fee = takerFeeWei("sell", 200, 600_000n, 100n * SH); // 0.288 USDC
    a = applyTrade(a, "sell", 600_000, 100n * SH, { asset: "usdc", amountMicro: fee });
    expect(fee).toBe(288_000n);
    expect(a).toMatchObject({ sizeMicro: 0n, realisedPico: 10n * USDC, feesPico: 288_000n * 1_000_000n });
    expect(picoToMicro(a.realisedPico - a.feesPico)).toBe(9_712_000n);
  });
});

describe("Inventory ledger", () => {
  const f1 = fill({
    tradeId: "9",
    orderId: "a",
    side: "buy",
    priceMicro: 400_000,
    sizeMicro: 10n * SH,
    tsMs: 5,
  });
  const f2 = fill({
    tradeId: "10",
    orderId: "b",
    side: "sell",
    priceMicro: 600_000,
    sizeMicro: 4n * SH,
    tsMs: 5,
  });
  const f3 = fill({
    tradeId: "2",
    orderId: "a",
    side: "buy",
    priceMicro: 500_000,
    sizeMicro: 10n * SH,
    tsMs: 9,
  });

  it("ignores duplicates and gives the same account in any arrival order", () => {
    const inOrder = new Inventory();
    for (const f of [f1, f2, f3]) expect(inOrder.applyFill(f)).toBe(true);
    expect(inOrder.applyFill(f2)).toBe(false);
    const shuffled = new Inventory();
    for (const f of [f3, f2, f3, f1, f1]) shuffled.applyFill(f);
    expect(shuffled.account(TOKEN)).toEqual(inOrder.account(TOKEN));
    expect(shuffled.fillCount).toBe(3);
    // trade "9" sorts before "10" in the same millisecond: buy first, so the sell realises +0.80
    expect(inOrder.account(TOKEN).realisedPico).toBe((8n * USDC) / 10n);
  });

  it("counts both fills of a self-trade (one tradeId, two orders)", () => {
    const inv = new Inventory();
    inv.applyFill(fill({ tradeId: "t", orderId: "buyer", side: "buy", sizeMicro: SH }));
    inv.applyFill(fill({ tradeId: "t", orderId: "seller", side: "sell", sizeMicro: SH }));
    expect(inv.fillCount).toBe(2);
    expect(inv.account(TOKEN).sizeMicro).toBe(0n);
  });

  it("takes a fee before or after its fill, and recomputes when it changes", () => {
    const fee = { asset: "shares", amountMicro: 100_000n } as const;
    const early = new Inventory();
    expect(early.setFee("9", "a", fee)).toBe(true);
    early.applyFill(f1);
    const late = new Inventory();
    late.applyFill(f1);
    late.applyFill(f3);
    expect(late.setFee("9", "a", fee)).toBe(true);
    expect(late.setFee("9", "a", fee)).toBe(false);
    early.applyFill(f3);
    expect(late.account(TOKEN)).toEqual(early.account(TOKEN));
    expect(late.account(TOKEN).sizeMicro).toBe(19_900_000n);
    expect(late.feesPico()).toBe(400_000n * 100_000n);
  });

  it("a correction sets the exchange's size; a late fill stamped before it does not count twice", () => {
    const inv = new Inventory();
    inv.applyFill(f1); // long 10 @ 0.40
    inv.correct(TOKEN, 6n * SH, 7);
    expect(inv.account(TOKEN)).toMatchObject({
      sizeMicro: 6n * SH,
      costPico: (24n * USDC) / 10n,
      realisedPico: 0n,
    });
    inv.applyFill(
      fill({ tradeId: "8", orderId: "x", side: "sell", priceMicro: 500_000, sizeMicro: 4n * SH, tsMs: 6 }),
    );
    expect(inv.account(TOKEN).sizeMicro).toBe(6n * SH); // stamped before the correction: already in the exchange's figure
    inv.correct(TOKEN, 8n * SH, 8, 500_000); // 2 shares appeared, entered at the mark 0.50
    inv.applyFill(f3); // +10 after the correction
    expect(inv.account(TOKEN).sizeMicro).toBe(18n * SH);
    expect(inv.sizes()).toEqual(new Map([[TOKEN, 18n * SH]]));
  });

  it("an untouched token is flat", () => {
    expect(new Inventory().position("nope")).toEqual({ tokenId: "nope", sizeMicro: 0n, costMicro: 0n });
  });
});
