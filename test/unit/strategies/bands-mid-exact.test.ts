import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderBook } from "../../../src/book/order-book.js";
import { Dec } from "../../../src/core/decimal.js";
import { bandsQuotes } from "../../../strategies/bands.js";
import { context, market } from "./helpers.js";

/*
 * bands around the mid prices its bands in integers ((bid + ask) / 2 is a half-integer of
 * micro-units at worst); the microprice keeps Decimal. With equal best sizes the microprice IS the
 * mid, so quoting the same book both ways must give the same quotes: on any touch, tick and
 * margins the integer path rounds exactly as the Decimal one.
 */

describe("bands: the mid reference in integers", () => {
  it("gives the quotes of the Decimal computation for any touch, tick and margins", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 100, 1_000, 5_000, 10_000, 30_000),
        fc.integer({ min: 1, max: 998_999 }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.array(fc.integer({ min: 1, max: 300_000 }), { minLength: 1, maxLength: 3 }),
        (tick, bid, width, margins) => {
          const ask = Math.min(999_999, bid + width);
          fc.pre(ask > bid);
          const b = new OrderBook("101");
          b.apply("bid", bid, 7_000_000n);
          b.apply("ask", ask, 7_000_000n); // equal sizes: microprice = mid, exactly
          expect(b.microprice()?.eq(new Dec(bid + ask).div(2_000_000))).toBe(true);
          const sorted = [...new Set(margins)].sort((x, y) => x - y);
          const params = (reference: "mid" | "microprice") => ({
            reference,
            bands: sorted.map((m) => ({ marginMicro: m, sizeMicro: 10_000_000n })),
          });
          const ctx = context(b, { market: market({ tickMicro: tick }) });
          expect(bandsQuotes(ctx, params("mid"))).toEqual(bandsQuotes(ctx, params("microprice")));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
