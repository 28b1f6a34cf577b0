import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec } from "../../../src/core/decimal.js";
import { assertFeeBps, feeRate, MAX_FEE_RATE_BPS, takerFee } from "../../../src/core/fees.js";
import {
  assertTick,
  clampToBand,
  isOnTick,
  priceBand,
  roundToTick,
  validatePrice,
} from "../../../src/core/ticks.js";

describe("ticks", () => {
  it("rounds onto the grid in the asked direction", () => {
    expect(roundToTick("0.537", "0.01", "down").toFixed()).toBe("0.53");
    expect(roundToTick("0.531", "0.01", "up").toFixed()).toBe("0.54");
    expect(roundToTick("0.535", "0.01", "nearest").toFixed()).toBe("0.54"); // half-even: 53.5 → 54
    expect(roundToTick("0.545", "0.01", "nearest").toFixed()).toBe("0.54"); // half-even: 54.5 → 54
    expect(roundToTick("0.53", "0.01", "up").toFixed()).toBe("0.53");
    expect(roundToTick("0.1234567", "0.000001", "down").toFixed()).toBe("0.123456");
  });

  it("validates price: on tick and within [tick, 1 − tick]", () => {
    expect(validatePrice("0.01", "0.01").toFixed()).toBe("0.01");
    expect(validatePrice("0.99", "0.01").toFixed()).toBe("0.99");
    expect(() => validatePrice("0.005", "0.01")).toThrow(expect.objectContaining({ code: "off_tick" }));
    expect(() => validatePrice("0", "0.01")).toThrow(expect.objectContaining({ code: "price_out_of_band" }));
    expect(() => validatePrice("1", "0.01")).toThrow(expect.objectContaining({ code: "price_out_of_band" }));
    expect(() => validatePrice("0.995", "0.001")).not.toThrow();
    expect(() => validatePrice("0.9995", "0.001")).toThrow(expect.objectContaining({ code: "off_tick" }));
  });

  it("rejects impossible ticks", () => {
    for (const t of ["0", "-0.01", "0.6", "0.0000001"]) {
      expect(() => assertTick(t)).toThrow(expect.objectContaining({ code: "invalid_tick" }));
    }
    expect(assertTick("0.000001").toFixed()).toBe("0.000001");
  });

  it("band and clamp", () => {
    const { min, max } = priceBand("0.001");
    expect([min.toFixed(), max.toFixed()]).toEqual(["0.001", "0.999"]);
    expect(clampToBand("1.2", "0.01").toFixed()).toBe("0.99");
    expect(clampToBand("-3", "0.01").toFixed()).toBe("0.01");
    expect(clampToBand("0.5", "0.01").toFixed()).toBe("0.5");
  });

  it("rounded prices are always on tick (property)", () => {
    const ticks = ["0.01", "0.001", "0.0001", "0.000001", "0.05", "0.5"];
    fc.assert(
      fc.property(
        fc.constantFrom(...ticks),
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.constantFrom("down", "up", "nearest") as fc.Arbitrary<"down" | "up" | "nearest">,
        (tick, n, mode) => {
          const price = new Dec(n).div(10 ** 9);
          const r = roundToTick(price, tick, mode);
          expect(isOnTick(r, tick)).toBe(true);
          expect(r.minus(price).abs().lte(tick)).toBe(true);
          if (mode === "down") expect(r.lte(price)).toBe(true);
          if (mode === "up") expect(r.gte(price)).toBe(true);
        },
      ),
    );
  });
});

describe("fees", () => {
  it("rate = bps/10000 × p × (1 − p), peaking at bps/4/10000 at p = 0.5", () => {
    expect(feeRate(200, "0.5").toFixed()).toBe("0.005");
    expect(feeRate(200, "0.5").eq(new Dec(200).div(4).div(10_000))).toBe(true);
    expect(feeRate(200, "0.2").toFixed()).toBe("0.0032"); // 0.02 × 0.2 × 0.8
    expect(feeRate(0, "0.3").toFixed()).toBe("0");
    expect(feeRate(1000, "0.99").toFixed()).toBe("0.00099");
  });

  it("is symmetric in p ↔ 1 − p and never exceeds the peak (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_FEE_RATE_BPS }),
        fc.integer({ min: 1, max: 999_999 }),
        (bps, n) => {
          const p = new Dec(n).div(1_000_000);
          const r = feeRate(bps, p);
          expect(r.eq(feeRate(bps, new Dec(1).minus(p)))).toBe(true);
          expect(r.lte(new Dec(bps).div(40_000))).toBe(true);
        },
      ),
    );
  });

  it("BUY taker pays in shares, SELL taker in USDC", () => {
    const buy = takerFee("buy", 200, "0.5", "100");
    expect(buy.asset).toBe("shares");
    expect(buy.amount.toFixed()).toBe("0.5"); // 0.005 × 100 shares
    const sell = takerFee("sell", 200, "0.5", "100");
    expect(sell.asset).toBe("usdc");
    expect(sell.amount.toFixed()).toBe("0.25"); // 0.005 × 0.5 × 100 USDC
  });

  it("refuses feeRateBps above 1000 with fee_too_high", () => {
    expect(assertFeeBps(1000)).toBe(1000);
    expect(() => assertFeeBps(1001)).toThrow(expect.objectContaining({ code: "fee_too_high" }));
    expect(() => assertFeeBps(-1)).toThrow(expect.objectContaining({ code: "invalid_fee_bps" }));
    expect(() => assertFeeBps(1.5)).toThrow(expect.objectContaining({ code: "invalid_fee_bps" }));
  });
});

describe("takerFeeWei", () => {
  it("matches the decimal formula, rounded up to a micro-unit", async () => {
    const { takerFeeWei } = await import("../../../src/core/fees.js");
    expect(takerFeeWei("buy", 200, 500_000n, 100_000_000n)).toBe(500_000n); // 0.5 shares
    expect(takerFeeWei("sell", 200, 500_000n, 100_000_000n)).toBe(250_000n); // 0.25 USDC
    expect(takerFeeWei("buy", 0, 500_000n, 100_000_000n)).toBe(0n);
    expect(takerFeeWei("buy", 200, 500_000n, 1n)).toBe(1n); // 0.005 micro-shares → 1
    fc.assert(
      fc.property(
        fc.constantFrom("buy", "sell") as fc.Arbitrary<"buy" | "sell">,
        fc.integer({ min: 0, max: 1000 }),
        fc.bigInt({ min: 1n, max: 999_999n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (side, bps, p, q) => {
          const exact = takerFee(
            side,
            bps,
            new Dec(p.toString()).div(1e6),
            new Dec(q.toString()).div(1e6),
          ).amount;
          const wei = takerFeeWei(side, bps, p, q);
          const micro = exact.times(1e6);
          expect(new Dec(wei.toString()).gte(micro)).toBe(true);
          expect(new Dec(wei.toString()).minus(micro).lt(1)).toBe(true);
        },
      ),
    );
  });
});
