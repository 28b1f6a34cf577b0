import { describe, expect, it } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { buyFillPayment, buyReservation } from "../../../src/venue/amounts.js";
import { Ledger } from "../../../src/venue/ledger.js";
import { A, B, harness, M1, order, u, YES } from "./fixture.js";

const yes = (v: ReturnType<typeof harness>["venue"], w: Address) =>
  v.positions(w).find((p) => p.tokenId === YES);

describe("reservations", () => {
  it("a buy reserves ⌈price × qty⌉ USDC, a sell reserves its shares", () => {
    const { venue } = harness();
    const buy = venue.place(order(A, "buy", "0.33", "0.000001")); // 0.00000033 → 1 micro
    expect(venue.order(A, buy.orderId)?.reserved).toBe(1n);
    venue.place(order(A, "buy", "0.37", "3"));
    expect(venue.balances(A).usdc).toEqual({
      balance: u("1000"),
      reserved: u("1.11") + 1n,
      available: u("998.89") - 1n,
    });
    venue.place(order(A, "sell", "0.90", "7.5"));
    expect(yes(venue, A)).toMatchObject({ balance: u("1000"), reserved: u("7.5"), available: u("992.5") });
  });

  it("cancel releases exactly what was reserved, after partial fills too", () => {
    const { venue } = harness();
    const buy = venue.place(order(A, "buy", "0.37", "3"));
    venue.place(order(B, "sell", "0.37", "1.000001")); // A pays ⌈0.37000037⌉ = 0.370001
    expect(venue.balances(A).usdc).toMatchObject({ balance: u("1000") - 370_001n });
    // Left to pay at most ⌈0.37 × 3⌉ − 0.370001 = 0.739999 on the remaining 1.999999.
    expect(venue.order(A, buy.orderId)?.reserved).toBe(739_999n);
    expect(venue.balances(A).usdc.reserved).toBe(739_999n);
    venue.cancel(A, buy.orderId);
    expect(venue.balances(A).usdc).toEqual({
      balance: u("1000") - 370_001n,
      reserved: 0n,
      available: u("1000") - 370_001n,
    });

    const sell = venue.place(order(A, "sell", "0.60", "4"));
    venue.place(order(B, "buy", "0.60", "1.5"));
    expect(yes(venue, A)?.reserved).toBe(u("2.5"));
    venue.cancel(A, sell.orderId);
    expect(yes(venue, A)).toMatchObject({ reserved: 0n, balance: u("1000") + u("1.000001") - u("1.5") });
  });

  it("price improvement is released at once, not held until the order ends", () => {
    const { venue } = harness();
    venue.place(order(B, "sell", "0.40", "5"));
    const r = venue.place(order(A, "buy", "0.60", "10")); // fills 5 at 0.40, rests 5 at 0.60
    expect(r.status).toBe("PARTIAL");
    expect(venue.balances(A).usdc).toEqual({ balance: u("998"), reserved: u("3"), available: u("995") });
  });

  it("many tiny fills never cost a buy more than its signed ⌈limit × qty⌉", () => {
    const { venue } = harness();
    const buy = venue.place(order(A, "buy", "0.50", "0.000003")); // ⌈1.5⌉ = 2 micro reserved
    for (let i = 0; i < 3; i++) venue.place(order(B, "sell", "0.50", "0.000001"));
    expect(venue.order(A, buy.orderId)).toMatchObject({ status: "FILLED", reserved: 0n });
    expect(venue.balances(A).usdc).toEqual({
      balance: u("1000") - 2n,
      reserved: 0n,
      available: u("1000") - 2n,
    });
    expect(venue.balances(B).usdc.balance).toBe(u("1000") + 2n);
  });

  it("cumulative rounding: payments sum to the rounded-up total notional", () => {
    // 3 fills of 1 micro at 0.5: 1 + 0 + 1 = 2 = ⌈1.5⌉.
    let acc = 0n;
    const paid: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      paid.push(buyFillPayment(acc, 500_000n, 1n));
      acc += 500_000n;
    }
    expect(paid).toEqual([1n, 0n, 1n]);
    expect(buyReservation(0n, 500_000n, 3n)).toBe(2n);
    expect(buyReservation(500_000n, 500_000n, 2n)).toBe(1n);
  });
});

describe("insufficient_funds", () => {
  it.each([
    {
      name: "buy beyond USDC",
      o: order(A, "buy", "0.50", "2000.000002"),
      asset: "usdc",
      required: u("1000.000001"),
    },
    {
      name: "sell beyond shares",
      o: order(A, "sell", "0.50", "1000.000001"),
      asset: YES,
      required: u("1000.000001"),
    },
  ])("$name", ({ o, asset, required }) => {
    const { venue } = harness();
    const r = venue.place(o);
    expect(r).toMatchObject({ status: "REJECTED", code: "insufficient_funds", orderId: "" });
    expect(r.details).toMatchObject({ asset, required: `${required}` });
  });

  it("counts what open orders already reserve", () => {
    const { venue } = harness();
    venue.place(order(A, "buy", "0.50", "1000")); // 500 reserved
    expect(venue.place(order(A, "buy", "0.50", "1000.000002")).code).toBe("insufficient_funds");
    expect(venue.place(order(A, "buy", "0.50", "1000")).status).toBe("OPEN");
    venue.place(order(A, "sell", "0.99", "600", { marketId: M1 }));
    expect(venue.place(order(A, "sell", "0.99", "400.000001")).code).toBe("insufficient_funds");
  });

  it("selling shares never bought is refused (no naked shorts)", () => {
    const { venue } = harness();
    const D = "0x00000000000000000000000000000000000000dd" as Address;
    venue.credit(D, "usdc", u("10"));
    expect(venue.place(order(D, "sell", "0.50", "1")).code).toBe("insufficient_funds");
  });
});

describe("admin credit and debit", () => {
  it("debits only the available balance", () => {
    const { venue } = harness();
    venue.place(order(A, "buy", "0.50", "1000"));
    expect(() => venue.debit(A, "usdc", u("500.000001"))).toThrow(
      expect.objectContaining({ code: "insufficient_funds" }),
    );
    venue.debit(A, "usdc", u("500"));
    expect(venue.balances(A).usdc).toEqual({ balance: u("500"), reserved: u("500"), available: 0n });
  });

  it("refuses unknown assets and non-positive amounts", () => {
    const { venue } = harness();
    expect(() => venue.credit(A, "999", 1n)).toThrow(expect.objectContaining({ code: "unknown_asset" }));
    expect(() => venue.credit(A, "usdc", 0n)).toThrow(expect.objectContaining({ code: "invalid_amount" }));
  });

  it("wallet addresses are case-insensitive", () => {
    const { venue } = harness();
    const upper = A.toUpperCase().replace("0X", "0x") as Address;
    venue.credit(upper, "usdc", u("1"));
    expect(venue.balances(A).usdc.balance).toBe(u("1001"));
    const r = venue.place(order(upper, "buy", "0.10", "1"));
    expect(venue.order(A, r.orderId)?.userWallet).toBe(A);
  });
});

describe("Ledger", () => {
  it("refuses a mutation that would break balance ≥ reserved ≥ 0, and leaves the slot untouched", () => {
    const l = new Ledger();
    l.credit("w", "usdc", 10n);
    l.reserve("w", "usdc", 8n);
    expect(() => l.debit("w", "usdc", 3n)).toThrow(expect.objectContaining({ code: "venue_invariant" }));
    expect(() => l.release("w", "usdc", 9n)).toThrow(expect.objectContaining({ code: "venue_invariant" }));
    expect(() => l.reserve("w", "usdc", 3n)).toThrow(expect.objectContaining({ code: "venue_invariant" }));
    expect(l.get("w", "usdc")).toEqual({ balance: 10n, reserved: 8n, available: 2n });
    l.spendReserved("w", "usdc", 8n);
    expect(l.get("w", "usdc")).toEqual({ balance: 2n, reserved: 0n, available: 2n });
  });
});
