import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec } from "../../../src/core/decimal.js";
import { MmError } from "../../../src/core/errors.js";
import { toWei, weiToString } from "../../../src/core/wei.js";
import { formatWei, plainWei, tickWei } from "../../../src/signing/plain-wei.js";

describe("plain-wei shortcut", () => {
  it("parses plain decimals exactly as core's toWei does", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n - 1n }),
        fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 6 }),
        (int, frac) => {
          const s = `${int}.${frac}`;
          expect(plainWei(s)).toBe(toWei(s));
          expect(plainWei(int.toString())).toBe(toWei(int.toString()));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("declines whatever is not plain, leaving the verdict to core", () => {
    for (const s of ["", ".5", "5.", "-1", "+1", "1e3", " 1", "1.0000000", "0x10", "1".repeat(31), "0.5\n"]) {
      expect(plainWei(s)).toBeUndefined();
    }
  });

  it("formats wei canonically, like core's weiToString", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), (w) => {
        expect(formatWei(w)).toBe(weiToString(w));
        expect(new Dec(formatWei(w)).eq(new Dec(w.toString()).div(1_000_000))).toBe(true);
      }),
    );
  });

  it("validates ticks through core", () => {
    expect(tickWei("0.01")).toBe(10_000n);
    expect(tickWei("0.000001")).toBe(1n);
    for (const bad of ["0", "0.6", "0.0000001", "x"]) {
      expect(() => tickWei(bad)).toThrow(MmError);
    }
  });
});
