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
  | { kind: "mark"; t: number; mid: number }
  | { kind: "orders"; t: number; buy: number; sell: number };

interface Rest {
  readonly side: "buy" | "sell";
  readonly sizeMicro: bigint;
  readonly filledMicro: bigint;
}

/** Our live orders per token, as the engine's OrderStore shows them to the PositionBook. */
class FakeOrders {
  readonly #live = new Map<string, Rest[]>();
  readonly #versions = new Map<string, number>();
  live(tokenId: string): readonly Rest[] {
    return this.#live.get(tokenId) ?? [];
  }
  version(tokenId: string): number {
    return this.#versions.get(tokenId) ?? 0;
  }
  /** Every fill of these orders is in inventory already. */
  unapplied(): undefined {
    return undefined;
  }
  /** Replaces the token's orders by one bid and one ask (0: none), the bid half filled. */
  set(tokenId: string, buy: number, sell: number): void {
    const rests: Rest[] = [];
    if (buy > 0)
      rests.push({ side: "buy", sizeMicro: BigInt(buy) * 2_000_000n, filledMicro: BigInt(buy) * 1_000_000n });
    if (sell > 0) rests.push({ side: "sell", sizeMicro: BigInt(sell) * 1_000_000n, filledMicro: 0n });
    this.#live.set(tokenId, rests);
    this.#versions.set(tokenId, this.version(tokenId) + 1);
  }
  /** max(|p + B|, |p − S|), worked out from scratch. */
  worst(tokenId: string, p: bigint): bigint {
    let b = 0n;
    let s = 0n;
    for (const o of this.live(tokenId)) {
      if (o.side === "buy") b += o.sizeMicro - o.filledMicro;
      else s += o.sizeMicro - o.filledMicro;
    }
    const abs = (v: bigint) => (v < 0n ? -v : v);
    return abs(p + b) > abs(p - s) ? abs(p + b) : abs(p - s);
  }
}

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
  fc.record({
    kind: fc.constant("orders" as const),
    t: fc.integer({ min: 0, max: 2 }),
    buy: fc.integer({ min: 0, max: 30 }),
    sell: fc.integer({ min: 0, max: 30 }),
  }),
);

describe("PositionBook: incremental exposure and PnL", () => {
  it("always equals a recomputation from the inventory, our orders and the last marks", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const inv = new Inventory();
        const orders = new FakeOrders();
        const book = new PositionBook(inv, TOKENS, () => 0n, orders);
        const marks = new Map<string, number>();
        ops.forEach((o, i) => {
          const tokenId = TOKENS[o.t]?.tokenId ?? "a1";
          if (o.kind === "orders") {
            // The engine's contract: orders change in a quoting step, which asks for the exposure first.
            book.exposure(tokenId);
            orders.set(tokenId, o.buy, o.sell);
            return;
          }
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
        const worst = new Map<string, bigint>();
        let totalWorst = 0n;
        for (const { tokenId, marketId } of TOKENS) {
          const w = orders.worst(tokenId, inv.account(tokenId).sizeMicro);
          worst.set(marketId, (worst.get(marketId) ?? 0n) + w);
          totalWorst += w;
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
        expect(book.totalWorstMicro()).toBe(totalWorst);
        for (const { tokenId, marketId } of TOKENS) {
          const p = inv.account(tokenId).sizeMicro;
          // This token by its position alone (its own orders are the in-flight fit's), the others at their worst.
          const own = orders.worst(tokenId, p) - (p < 0n ? -p : p);
          expect(book.exposure(tokenId)).toEqual({
            positionMicro: p,
            marketGrossMicro: gross.get(marketId),
            totalGrossMicro: total,
            marketWorstMicro: (worst.get(marketId) ?? 0n) - own,
            totalWorstMicro: totalWorst - own,
            heldMicro: p, // no baseline: the holding is the position
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
      marketWorstMicro: 10_000_000n,
      totalWorstMicro: 10_000_000n,
      heldMicro: 4_990_000_000n,
    });
  });
});
