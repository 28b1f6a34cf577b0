import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parsePriceMicro, parseSizeMicro } from "../../src/book/micro.js";
import { Dec, parseDecimal } from "../../src/core/decimal.js";
import { ValidationError } from "../../src/core/errors.js";
import { toWei } from "../../src/core/wei.js";
import { fuzz, printTally, timeoutFor } from "./runs.js";

/*
 * The decimal readers every external number goes through (book prices and sizes on the hot path,
 * parseDecimal and toWei for REST bodies, config and the mock's request bodies), compared with a
 * reference built on a regular expression and BigInt digit arithmetic, on decimal-like strings:
 * near misses (signs, exponents, blanks, extra dots, long fractions, non-ASCII digits) and long
 * exact values. Each answers exactly the reference's value or refuses; nothing is ever rounded.
 */

const started = performance.now();
afterAll(() => printTally("decimals", started));

const PLAIN = /^\d+(\.\d+)?$/;

/** Exact micro-units of a plain decimal string, undefined when it has a non-zero 7th decimal. */
function refMicro(s: string): bigint | undefined {
  const [int = "", frac = ""] = s.split(".");
  if (/[1-9]/.test(frac.slice(6))) return undefined;
  return BigInt(int + frac.slice(0, 6).padEnd(6, "0"));
}

/** Decimal-looking strings: mostly digits and dots, with the usual near misses. */
const decimalish = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.constantFrom("0", "0", "1", "5", "9", "9", ".", ".", "-", "+", "e", "E", " ", "٣", "_", "x"),
        {
          maxLength: 14,
        },
      )
      .map((cs) => cs.join("")),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 70n }),
        fc.option(fc.tuple(fc.nat(8), fc.bigInt({ min: 0n, max: 10n ** 9n }))),
        fc.nat(3),
      )
      .map(([i, f, zeros]) => {
        const int = "0".repeat(zeros) + i.toString();
        return f === null ? int : `${int}.${"0".repeat(f[0])}${f[1]}`;
      }),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.nat(1), fc.nat(6), fc.integer({ min: 0, max: 999_999 }), fc.nat(4))
      .map(([w, pad, frac, zeros]) => `${w}.${String(frac).padStart(pad, "0")}${"0".repeat(zeros)}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom("٣", "۵", "１", "½", "⁹", "𝟘", "\u0000", "\ud800", "e", "0"), { maxLength: 8 })
      .map((a) => a.join("")),
  },
);

describe("fuzz: decimal readers against an exact reference", () => {
  it(
    "parsePriceMicro: the exact micro price of a plain decimal in (0, 1] with at most 6 significant decimals, else -1",
    () => {
      fuzz(
        "decimals: parsePriceMicro",
        fc.property(decimalish, (s) => {
          const micro = PLAIN.test(s) ? refMicro(s) : undefined;
          const want = micro !== undefined && micro > 0n && micro <= 1_000_000n ? Number(micro) : -1;
          expect(parsePriceMicro(s)).toBe(want);
        }),
      );
    },
    timeoutFor(),
  );

  it(
    "parseSizeMicro: the exact micro size of any plain decimal with at most 6 significant decimals, else undefined",
    () => {
      fuzz(
        "decimals: parseSizeMicro",
        fc.property(decimalish, (s) => {
          expect(parseSizeMicro(s)).toBe(PLAIN.test(s) ? refMicro(s) : undefined);
        }),
      );
    },
    timeoutFor(),
  );

  it(
    "parseDecimal and toWei: the exact value or a ValidationError with a stable code, never a rounded one",
    () => {
      fuzz(
        "decimals: parseDecimal + toWei",
        fc.property(
          fc.oneof(
            decimalish,
            decimalish.map((s) => `-${s}`),
            fc.anything(),
          ),
          (v) => {
            const plain = typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v);
            let d: InstanceType<typeof Dec>;
            try {
              d = parseDecimal(v, "amount");
            } catch (err) {
              expect(err).toBeInstanceOf(ValidationError);
              expect((err as ValidationError).code).toBe("invalid_decimal");
              expect(plain).toBe(false);
              return;
            }
            expect(plain).toBe(true);
            const s = v as string;
            expect(d.eq(new Dec(s))).toBe(true);
            const negative = s.startsWith("-");
            const micro = refMicro(negative ? s.slice(1) : s);
            try {
              const wei = toWei(d, "amount");
              expect(micro).toBeDefined();
              expect(wei).toBe(negative ? -(micro as bigint) : micro);
            } catch (err) {
              expect(err).toBeInstanceOf(ValidationError);
              expect((err as ValidationError).code).toBe("precision_exceeded");
              expect(micro).toBeUndefined();
            }
          },
        ),
      );
    },
    timeoutFor(),
  );
});
