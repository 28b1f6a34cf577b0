import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PositionBook } from "../../../src/engine/engine-positions.js";
import { Inventory } from "../../../src/execution/inventory.js";

const TOKENS = [
  { tokenId: "a1", marketId: "A" },
  { tokenId: "a2", marketId: "A" },
  { tokenId: "b1", marketId: "B" },
];

type Op =
  | { kind: "fill"; t: number; buy: boolean; price: number; size: number }
  | { kind: "mark"; t: number; mid: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("fill" as const),
    t: fc.integer({ min: 0, max: 2 }),
    buy: fc.boolean(),
    price: fc.integer({ min: 1, max: 99 }),
    size: fc.integer({ min: 1, max: 50 }),
  }),
  fc.record({
    kind: fc.constant("mark" as const),
    t: fc.integer({ min: 0, max: 2 }),
    mid: fc.integer({ min: 10_000, max: 990_000 }),
  }),
);

describe("PositionBook: incremental exposure and PnL", () => {
  it("always equals a recomputation from the inventory and the last marks", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const inv = new Inventory();
        const book = new PositionBook(inv, TOKENS);
        const marks = new Map<string, number>();
        ops.forEach((o, i) => {
          const tokenId = TOKENS[o.t]?.tokenId ?? "a1";
          if (o.kind === "mark") {
            book.mark(tokenId, o.mid + 0.5); // a fractional mid is marked at its floor
            marks.set(tokenId, o.mid);
            return;
          }
          inv.applyFill({
            tradeId: String(i),
            orderId: "o",
            clientOrderId: undefined,
            tokenId,
            side: o.buy ? "buy" : "sell",
            priceMicro: o.price * 10_000,
            sizeMicro: BigInt(o.size) * 1_000_000n,
            tsMs: i,
          });
          book.refresh(tokenId);
        });
        let pnl = 0n;
        const gross = new Map<string, bigint>();
        let total = 0n;
        for (const { tokenId, marketId } of TOKENS) {
          const acc = inv.account(tokenId);
          const m = marks.get(tokenId);
          pnl +=
            acc.realisedPico -
            acc.feesPico +
            (m === undefined ? 0n : acc.sizeMicro * BigInt(m) - acc.costPico);
          const abs = acc.sizeMicro < 0n ? -acc.sizeMicro : acc.sizeMicro;
          gross.set(marketId, (gross.get(marketId) ?? 0n) + abs);
          total += abs;
        }
        expect(book.pnlMicro).toBe(pnl / 1_000_000n);
        for (const { tokenId, marketId } of TOKENS) {
          expect(book.exposure(tokenId)).toEqual({
            positionMicro: inv.account(tokenId).sizeMicro,
            marketGrossMicro: gross.get(marketId),
            totalGrossMicro: total,
            heldMicro: inv.account(tokenId).sizeMicro, // no baseline: the holding is the position
          });
        }
      }),
    );
  });

  it("absolute sizes add the baseline; the exposure stays relative, with the absolute holding", () => {
    const inv = new Inventory();
    const book = new PositionBook(inv, TOKENS);
    book.setBaseline(
      new Map([
        ["a1", 5_000_000_000n],
        ["zz", 7n],
      ]),
    );
    inv.applyFill({
      tradeId: "1",
      orderId: "o",
      clientOrderId: undefined,
      tokenId: "a1",
      side: "sell",
      priceMicro: 500_000,
      sizeMicro: 10_000_000n,
      tsMs: 1,
    });
    book.refresh("a1");
    expect(book.absoluteSizes()).toEqual(new Map([["a1", 4_990_000_000n]]));
    expect(book.exposure("a1")).toEqual({
      positionMicro: -10_000_000n,
      marketGrossMicro: 10_000_000n,
      totalGrossMicro: 10_000_000n,
      heldMicro: 4_990_000_000n,
    });
  });
});
