import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec } from "../../../src/core/decimal.js";
import { MmError } from "../../../src/core/errors.js";
import type { Side } from "../../../src/core/types.js";
import { buildOrderStruct, type OrderStructInput } from "../../../src/signing/order-struct.js";
import { MARKET, TEST_WALLET, weiString } from "./fixtures.js";

const ONE = 1_000_000n;

function input(side: Side, price: string, quantity: string, tickSize: string): OrderStructInput {
  return {
    market: { ...MARKET, tickSize },
    side,
    price,
    quantity,
    expiry: 0,
    salt: 1n,
    maker: TEST_WALLET,
    signer: TEST_WALLET,
    signatureType: 0,
    defaultFeeRateBps: 0,
  };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof MmError) return err.code;
    throw err;
  }
}

/** value = num / 10^scale, trailing fractional zeros removed. */
function parse(s: string): { num: bigint; scale: number } {
  const neg = s.startsWith("-");
  const [int = "", frac = ""] = (neg ? s.slice(1) : s).split(".");
  const f = frac.replace(/0+$/, "");
  const num = BigInt(int + f);
  return { num: neg ? -num : num, scale: f.length };
}

/** Independent statement of what the builder must accept, as the refusal code (undefined = accept). */
function expectedCode(side: Side, price: string, quantity: string, tickWei: bigint): string | undefined {
  const p = parse(price);
  const q = parse(quantity);
  if (p.num <= 0n || q.num <= 0n) return "invalid_amounts";
  if (p.scale > 6) return "off_tick";
  const priceWei = p.num * 10n ** BigInt(6 - p.scale);
  if (priceWei % tickWei !== 0n) return "off_tick";
  if (priceWei < tickWei || priceWei > ONE - tickWei) return "price_out_of_band";
  if (q.scale > 6) return "precision_exceeded";
  // A SELL's proceeds are floored: under 1 micro-USDC they would be 0, shares for nothing.
  if (side === "sell" && priceWei * q.num * 10n ** BigInt(6 - q.scale) < ONE) return "invalid_amounts";
  return undefined;
}

const tickArb = fc.oneof(
  fc.constantFrom(10_000n, 1_000n, 100n, 1n, 50_000n, 25_000n),
  fc.bigInt({ min: 1n, max: 500_000n }),
);
const digits = (maxLength: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength });
const decimalArb = (ints: fc.Arbitrary<string>) =>
  fc
    .record({
      neg: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      int: ints,
      // Short fractions land on coarse ticks often enough; long ones probe the 6-decimal limit.
      frac: fc.oneof(digits(3), digits(9)),
    })
    .map(({ neg, int, frac }) => `${neg ? "-" : ""}${int}${frac === "" ? "" : `.${frac}`}`);
const priceStringArb = decimalArb(fc.constantFrom("0", "0", "0", "0", "1", "2"));
const qtyStringArb = decimalArb(fc.bigInt({ min: 0n, max: 10n ** 9n }).map(String));
const sideArb = fc.constantFrom<Side>("buy", "sell");

/** The amount invariants of an accepted order. */
function checkAmounts(side: Side, price: string, quantity: string, tickWei: bigint): void {
  const r = buildOrderStruct(input(side, price, quantity, weiString(tickWei)));
  const priceWei = parse(r.price).num * 10n ** BigInt(6 - parse(r.price).scale);
  const qtyWei = parse(r.quantity).num * 10n ** BigInt(6 - parse(r.quantity).scale);
  expect(new Dec(r.price).eq(price)).toBe(true);
  expect(new Dec(r.quantity).eq(quantity)).toBe(true);
  expect(priceWei % tickWei).toBe(0n);
  expect(priceWei >= tickWei && priceWei <= ONE - tickWei).toBe(true);
  const notional = priceWei * qtyWei;
  const { makerAmount, takerAmount } = r.struct;
  if (side === "buy") {
    expect(takerAmount).toBe(qtyWei);
    // The exact ceiling: never below the notional, and less than one wei above it.
    expect(makerAmount * ONE >= notional).toBe(true);
    expect((makerAmount - 1n) * ONE < notional).toBe(true);
  } else {
    expect(makerAmount).toBe(qtyWei);
    expect(takerAmount * ONE <= notional).toBe(true);
    expect((takerAmount + 1n) * ONE > notional).toBe(true);
  }
}

describe("buildOrderStruct properties", () => {
  it("on-grid prices: BUY notional is the exact ceiling, SELL proceeds the exact floor", () => {
    fc.assert(
      fc.property(
        tickArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        sideArb,
        fc.boolean(),
        (tickWei, f, qtyWei, side, padded) => {
          const steps = (ONE - tickWei) / tickWei;
          const priceWei = tickWei * (1n + BigInt(Math.floor(f * Number(steps - 1n))));
          const price = padded ? new Dec(weiString(priceWei)).toFixed(6) : weiString(priceWei);
          if (side === "sell" && priceWei * qtyWei < ONE) {
            const dust = input(side, price, weiString(qtyWei), weiString(tickWei));
            expect(codeOf(() => buildOrderStruct(dust))).toBe("invalid_amounts");
          } else checkAmounts(side, price, weiString(qtyWei), tickWei);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("accepts exactly what the rules allow, refusing the rest with the right code", () => {
    fc.assert(
      fc.property(priceStringArb, qtyStringArb, tickArb, sideArb, (price, quantity, tickWei, side) => {
        const want = expectedCode(side, price, quantity, tickWei);
        const strings = input(side, price, quantity, weiString(tickWei));
        // Strings take the bigint shortcut where they can; Dec inputs always take core's decimal.js path.
        const decs = { ...strings, price: new Dec(price), quantity: new Dec(quantity) };
        expect(codeOf(() => buildOrderStruct(strings))).toBe(want);
        expect(codeOf(() => buildOrderStruct(decs))).toBe(want);
        if (want === undefined) {
          checkAmounts(side, price, quantity, tickWei);
          expect(buildOrderStruct(decs)).toEqual(buildOrderStruct(strings));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ["0.123", "1", "0.01", "off_tick"],
    ["0.5000001", "1", "0.000001", "off_tick"],
    ["0.05", "1", "0.1", "off_tick"],
    ["0", "1", "0.01", "invalid_amounts"],
    ["-0.5", "1", "0.01", "invalid_amounts"],
    ["1", "1", "0.01", "price_out_of_band"],
    ["1.5", "1", "0.5", "price_out_of_band"],
    ["0.5", "0", "0.01", "invalid_amounts"],
    ["0.5", "-3", "0.01", "invalid_amounts"],
    ["0.5", "1.0000001", "0.01", "precision_exceeded"],
    ["0.5", "1e3", "0.01", "invalid_decimal"],
    ["0.5", " 1", "0.01", "invalid_decimal"],
    ["abc", "1", "0.01", "invalid_decimal"],
    ["0.5", "1", "0.0000001", "invalid_tick"],
  ])("price %s quantity %s tick %s → %s", (price, quantity, tick, code) => {
    expect(codeOf(() => buildOrderStruct(input("buy", price, quantity, tick)))).toBe(code);
  });

  it("a BUY with a remainder rounds up, the matching SELL rounds down", () => {
    // 0.07 × 0.000001 = 0.00000007 USDC: 0.07 wei of notional, up to 1 for the BUY; the SELL's 0 is
    // refused (dust-proceeds.test.ts). 0.07 × 0.000015 = 1.05 wei: the SELL gets 1.
    const buy = buildOrderStruct(input("buy", "0.07", "0.000001", "0.01")).struct;
    const sell = buildOrderStruct(input("sell", "0.07", "0.000015", "0.01")).struct;
    expect([buy.makerAmount, buy.takerAmount]).toEqual([1n, 1n]);
    expect([sell.makerAmount, sell.takerAmount]).toEqual([15n, 1n]);
    const b2 = buildOrderStruct(input("buy", "0.33", "1.5", "0.01")).struct;
    expect([b2.makerAmount, b2.takerAmount]).toEqual([495_000n, 1_500_000n]);
  });

  it("refuses malformed token ids, expiries, salts, signature types and sides", () => {
    const ok = input("buy", "0.5", "1", "0.01");
    expect(codeOf(() => buildOrderStruct({ ...ok, market: { ...MARKET, tokenId: "0x12" } }))).toBe(
      "invalid_token_id",
    );
    expect(
      codeOf(() => buildOrderStruct({ ...ok, market: { ...MARKET, tokenId: (1n << 256n).toString() } })),
    ).toBe("invalid_token_id");
    expect(codeOf(() => buildOrderStruct({ ...ok, expiry: -1 }))).toBe("invalid_expiry");
    expect(codeOf(() => buildOrderStruct({ ...ok, expiry: 1.5 }))).toBe("invalid_expiry");
    expect(codeOf(() => buildOrderStruct({ ...ok, salt: 1n << 256n }))).toBe("invalid_salt");
    expect(codeOf(() => buildOrderStruct({ ...ok, signatureType: 256 }))).toBe("invalid_signature_type");
    expect(codeOf(() => buildOrderStruct({ ...ok, side: "hold" as Side }))).toBe("invalid_side");
    expect(codeOf(() => buildOrderStruct({ ...ok, maker: "0x1234" }))).toBe("invalid_address");
  });
});
