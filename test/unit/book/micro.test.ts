import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { microToDec, microToString, parsePriceMicro, parseSizeMicro } from "../../../src/book/micro.js";
import { Dec } from "../../../src/core/decimal.js";
import { toWei } from "../../../src/core/wei.js";

describe("parsePriceMicro", () => {
  it.each([
    ["0.53", 530_000],
    ["0.5", 500_000],
    ["0.000001", 1],
    ["1", 1_000_000],
    ["1.0", 1_000_000],
    ["0.1000000", 100_000],
    ["00.25", 250_000],
  ])("%s → %d", (s, micro) => {
    expect(parsePriceMicro(s)).toBe(micro);
  });

  it.each([
    "0",
    "0.0",
    "1.000001",
    "2",
    "-0.5",
    "0.5e1",
    ".5",
    "1.",
    "",
    "0.0000001",
    "0,5",
    " 0.5",
    "0x1",
    "10",
  ])("refuses %j", (s) => {
    expect(parsePriceMicro(s)).toBe(-1);
  });
});

describe("parseSizeMicro", () => {
  it.each([
    ["0", 0n],
    ["5246.77", 5_246_770_000n],
    ["100", 100_000_000n],
    ["0.000001", 1n],
    ["36174.270000", 36_174_270_000n],
    ["123456789012345678901234567890.123456", 123456789012345678901234567890123456n],
    ["9007199254.740993", 9_007_199_254_740_993n],
  ])("%s → %s", (s, micro) => {
    expect(parseSizeMicro(s)).toBe(micro);
  });

  it.each(["-1", "1e3", "1.0000001", "", ".", "1.", ".5", "1.2.3", "abc", "1 "])("refuses %j", (s) => {
    expect(parseSizeMicro(s)).toBeUndefined();
  });

  it("agrees with core's toWei on every plain decimal with up to 6 decimals", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 6 }), (v, decimals) => {
        const text = v.toString().padStart(decimals + 1, "0");
        const s = decimals === 0 ? text : `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
        expect(parseSizeMicro(s)).toBe(toWei(s));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("microToString / microToDec", () => {
  it("formats canonically and round-trips", () => {
    expect(microToString(530_000)).toBe("0.53");
    expect(microToString(10_000_000n)).toBe("10");
    expect(microToString(0n)).toBe("0");
    expect(microToString(-1_500_000)).toBe("-1.5");
    expect(microToString(1n)).toBe("0.000001");
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (v) => {
        expect(parseSizeMicro(microToString(v))).toBe(v);
        expect(microToDec(v).eq(new Dec(v.toString()).div(1e6))).toBe(true);
      }),
    );
  });
});
