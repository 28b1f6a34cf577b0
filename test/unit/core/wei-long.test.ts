import { describe, expect, it } from "vitest";
import { Dec } from "../../../src/core/decimal.js";
import { hasCode } from "../../../src/core/errors.js";
import { toWei } from "../../../src/core/wei.js";

// Regression (found by test/fuzz/decimals.test.ts): toWei scaled with Dec arithmetic, which rounds
// to 60 significant digits, so a value with 55+ integer digits lost its 7th decimal silently.
describe("toWei on values longer than Dec's precision", () => {
  const int = `1${"0".repeat(53)}`; // 54 integer digits: with 7 decimals, 61 significant digits

  it("refuses a 7th decimal however long the integer part", () => {
    for (const s of [`${int}.0087139`, `-${int}.0000001`, `${"9".repeat(80)}.1234567`]) {
      let thrown: unknown;
      try {
        toWei(s);
      } catch (err) {
        thrown = err;
      }
      expect(hasCode(thrown, "precision_exceeded"), s).toBe(true);
    }
  });

  it("converts long values exactly, digit for digit", () => {
    expect(toWei(`${int}.123456`)).toBe(BigInt(`${int}123456`));
    expect(toWei(`-${"9".repeat(80)}.5`)).toBe(-BigInt(`${"9".repeat(80)}500000`));
    expect(toWei(new Dec(`${int}.5000000`))).toBe(BigInt(`${int}500000`));
    expect(toWei("-0")).toBe(0n);
  });
});
