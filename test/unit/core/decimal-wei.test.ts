import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec, decString, parseDecimal, toDec } from "../../../src/core/decimal.js";
import { MmError } from "../../../src/core/errors.js";
import { fromWei, mulWeiCeil, mulWeiFloor, toWei, weiToString } from "../../../src/core/wei.js";

describe("parseDecimal", () => {
  it.each(["0", "0.53", "100", "-1.5", "0.000001", "123456789012345678901234567890.123456"])(
    "accepts %s",
    (s) => {
      expect(parseDecimal(s, "x").toFixed()).toBe(new Dec(s).toFixed());
    },
  );

  it.each([
    ["1e3"],
    [""],
    [" 1"],
    ["0x10"],
    ["NaN"],
    ["Infinity"],
    [".5"],
    ["1."],
    ["+1"],
    [0.5],
    [null],
    [undefined],
  ])("refuses %j with invalid_decimal naming the field", (v) => {
    const err = (() => {
      try {
        parseDecimal(v, "price");
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).code).toBe("invalid_decimal");
    expect((err as MmError).message).toContain("price");
  });

  it("is exact where binary floats are not", () => {
    expect(parseDecimal("0.1", "a").plus(parseDecimal("0.2", "b")).toFixed()).toBe("0.3");
  });
});

describe("toDec", () => {
  it("refuses binary floats with a fraction but accepts safe integers and bigints", () => {
    expect(() => toDec(0.1)).toThrow(/binary float/);
    expect(toDec(42).toFixed()).toBe("42");
    expect(toDec(10n ** 30n).toFixed()).toBe("1000000000000000000000000000000");
  });
  it("decString drops trailing zeros and never uses exponents", () => {
    expect(decString(new Dec("0.50"))).toBe("0.5");
    expect(decString(new Dec("0.0000001"))).toBe("0.0000001");
  });
});

describe("wei", () => {
  it("converts exactly both ways", () => {
    expect(toWei("0.53")).toBe(530_000n);
    expect(toWei("1")).toBe(1_000_000n);
    expect(toWei("0.000001")).toBe(1n);
    expect(weiToString(530_000n)).toBe("0.53");
    expect(fromWei(1n).toFixed()).toBe("0.000001");
  });

  it("refuses more than 6 decimals instead of rounding", () => {
    expect(() => toWei("0.0000001", "quantity")).toThrow(
      expect.objectContaining({ code: "precision_exceeded" }),
    );
  });

  it("ceil and floor products match their definitions", () => {
    expect(mulWeiCeil(530_000n, 10_000_001n)).toBe(5_300_001n); // 5.30000053 → up
    expect(mulWeiFloor(530_000n, 10_000_001n)).toBe(5_300_000n);
    expect(mulWeiCeil(500_000n, 2_000_000n)).toBe(1_000_000n); // exact: no bump
    expect(() => mulWeiCeil(-1n, 1n)).toThrow(expect.objectContaining({ code: "negative_amount" }));
  });

  it("round-trips any 6-decimal amount (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), (wei) => {
        expect(toWei(weiToString(wei))).toBe(wei);
      }),
    );
  });

  it("ceil ≥ exact product ≥ floor, and they differ only with a remainder (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        (a, b) => {
          const exact = a * b;
          const c = mulWeiCeil(a, b);
          const f = mulWeiFloor(a, b);
          expect(c * 1_000_000n >= exact).toBe(true);
          expect(f * 1_000_000n <= exact).toBe(true);
          expect(c - f).toBe(exact % 1_000_000n === 0n ? 0n : 1n);
        },
      ),
    );
  });
});
