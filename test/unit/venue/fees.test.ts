import { describe, expect, it } from "vitest";
import { A, B, binaryMarket, harness, M1, NO, order, u, YES } from "./fixture.js";

/**
 * Fees computed by hand (rate = bps/10⁴ · p · (1 − p); a buyer pays in shares on the shares it
 * receives, a seller in USDC on the USDC it receives; rounded up to the micro-unit), then the
 * venue's balances checked to the micro-unit.
 */
describe("fees, both sides and both roles, exact to the micro-unit", () => {
  const cases = [
    {
      name: "taker buys at 0.40 × 100 (taker 200 bps, maker 100 bps)",
      makerSide: "sell",
      price: "0.40",
      qty: "100",
      notional: 40_000_000n, // 0.40 × 100
      takerFee: { asset: "shares", amount: 480_000n }, // 100 × 0.02 × 0.4 × 0.6 = 0.48
      makerFee: { asset: "usdc", amount: 96_000n }, // 100 × 0.4 × (0.01 × 0.24) = 0.096
    },
    {
      name: "taker sells at 0.40 × 100 (taker 200 bps, maker 100 bps)",
      makerSide: "buy",
      price: "0.40",
      qty: "100",
      notional: 40_000_000n,
      takerFee: { asset: "usdc", amount: 192_000n }, // 100 × 0.4 × 0.0048 = 0.192
      makerFee: { asset: "shares", amount: 240_000n }, // 100 × 0.0024 = 0.24
    },
    {
      name: "rounding up: taker buys at 0.33 × 7.000001",
      makerSide: "sell",
      price: "0.33",
      qty: "7.000001",
      notional: 2_310_001n, // ⌈2.31000033⌉
      takerFee: { asset: "shares", amount: 30_955n }, // ⌈0.030954004422⌉
      makerFee: { asset: "usdc", amount: 5_108n }, // ⌈7.000001 × 0.33 × 0.01 × 0.2211 = 0.00510741…⌉
    },
    {
      name: "rounding up: taker sells at 0.33 × 7.000001",
      makerSide: "buy",
      price: "0.33",
      qty: "7.000001",
      notional: 2_310_001n,
      takerFee: { asset: "usdc", amount: 10_215n }, // ⌈0.01021482145926⌉
      makerFee: { asset: "shares", amount: 15_478n }, // ⌈7.000001 × 0.002211 = 0.015477002211⌉
    },
  ] as const;

  it.each(cases)("$name", (c) => {
    const { venue } = harness({ makerFeeBps: 100 }, [binaryMarket(M1, YES, NO, { feeTakerBps: 200 })]);
    const takerSide = c.makerSide === "buy" ? "sell" : "buy";
    venue.place(order(A, c.makerSide, c.price, c.qty));
    const r = venue.place(order(B, takerSide, c.price, c.qty));
    const t = r.trades[0];
    expect(r.trades).toHaveLength(1);
    expect(t?.notional).toBe(c.notional);
    expect(t?.takerFee).toEqual(c.takerFee);
    expect(t?.makerFee).toEqual(c.makerFee);

    const buyer = c.makerSide === "buy" ? A : B;
    const seller = c.makerSide === "buy" ? B : A;
    const buyerFee = c.makerSide === "buy" ? c.makerFee.amount : c.takerFee.amount;
    const sellerFee = c.makerSide === "buy" ? c.takerFee.amount : c.makerFee.amount;
    const q = u(c.qty);
    expect(venue.balances(buyer).usdc).toEqual({
      balance: u("1000") - c.notional,
      reserved: 0n,
      available: u("1000") - c.notional,
    });
    expect(venue.balances(seller).usdc.balance).toBe(u("1000") + c.notional - sellerFee);
    const yes = (w: typeof A) => venue.positions(w).find((p) => p.tokenId === YES)?.balance;
    expect(yes(buyer)).toBe(u("1000") + q - buyerFee);
    expect(yes(seller)).toBe(u("1000") - q);
    expect(venue.feeBalances()).toEqual({ usdc: sellerFee, shares: { [YES]: buyerFee } });
  });

  it("peaks at p = 0.5 at feeTakerBps / 4 / 10000", () => {
    const { venue } = harness({}, [binaryMarket(M1, YES, NO, { feeTakerBps: 1000 })]);
    venue.place(order(A, "sell", "0.50", "10"));
    const r = venue.place(order(B, "buy", "0.50", "10"));
    expect(r.trades[0]?.takerFee).toEqual({ asset: "shares", amount: u("0.25") }); // 10 × 0.025
    expect(r.trades[0]?.makerFee).toEqual({ asset: "usdc", amount: 0n }); // maker fee default 0
  });

  it("feeTakerBps null inherits the venue default", () => {
    const { venue } = harness({ defaultFeeTakerBps: 1000 }, [
      binaryMarket(M1, YES, NO, { feeTakerBps: null }),
    ]);
    expect(venue.market(M1)?.effectiveTakerBps).toBe(1000);
    venue.place(order(A, "buy", "0.50", "10"));
    const r = venue.place(order(B, "sell", "0.50", "10"));
    expect(r.trades[0]?.takerFee).toEqual({ asset: "usdc", amount: u("0.125") }); // 10 × 0.5 × 0.025
  });

  it("a fee never exceeds what its payer receives (sub-micro notionals)", () => {
    const { venue } = harness({}, [binaryMarket(M1, YES, NO, { feeTakerBps: 1000 })]);
    // A buys 2 micro-shares at 0.01: cumulative notional 0.00000002 USDC, paid as ⌈…⌉ = 1 micro once.
    venue.place(order(A, "buy", "0.01", "0.000002"));
    const first = venue.place(order(B, "sell", "0.01", "0.000001"));
    const second = venue.place(order(B, "sell", "0.01", "0.000001"));
    expect(first.trades[0]).toMatchObject({ notional: 1n, takerFee: { asset: "usdc", amount: 1n } });
    expect(second.trades[0]).toMatchObject({ notional: 0n, takerFee: { asset: "usdc", amount: 0n } });
    expect(venue.balances(A).usdc.balance).toBe(u("1000") - 1n);
    expect(venue.balances(B).usdc.balance).toBe(u("1000"));
    expect(venue.feeBalances().usdc).toBe(1n);
  });
});
