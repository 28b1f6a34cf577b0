import { describe, expect, it } from "vitest";
import { hasCode } from "../../../src/core/errors.js";
import { buildOrderStruct, type OrderStructInput } from "../../../src/signing/order-struct.js";
import { MARKET, TEST_WALLET } from "./fixtures.js";

// Review 16 (signing): a SELL whose proceeds floor to 0 wei is signed as-is. The struct then
// authorises giving shares away for nothing (on-chain price takerAmount / makerAmount = 0) while
// the body says price 0.5; an exchange checking the struct refuses a zero amount, one that does not
// settles it at 0. Reachable whenever price × quantity < 1 micro-USDC: markets.minOrderSize and
// markets.tickSizes allow 0.000001 (e.g. tick 0.000001 and any size under 1 share at the lowest
// price, or minOrderSize 0.0001 at a 0.01 tick). The builder should refuse it before signing,
// as it refuses every other amount the exchange cannot take (`invalid_amounts`).
const input = (over: Partial<OrderStructInput>): OrderStructInput => ({
  market: MARKET,
  side: "sell",
  price: "0.5",
  quantity: "0.000001",
  expiry: 0,
  salt: 1n,
  maker: TEST_WALLET,
  signer: TEST_WALLET,
  signatureType: 0,
  defaultFeeRateBps: 0,
  ...over,
});

describe("buildOrderStruct: a SELL whose proceeds round to zero", () => {
  it("is refused rather than signed with takerAmount 0", () => {
    let built: ReturnType<typeof buildOrderStruct> | undefined;
    let error: unknown;
    try {
      built = buildOrderStruct(input({}));
    } catch (err) {
      error = err;
    }
    // Today: built.struct = { makerAmount: 1n, takerAmount: 0n } — shares for nothing.
    expect(built?.struct.takerAmount).toBeUndefined();
    expect(hasCode(error, "invalid_amounts")).toBe(true);
  });

  it("the same at a 0.000001 tick: 0.5 share at the lowest price", () => {
    const market = { ...MARKET, tickSize: "0.000001" };
    expect(() => buildOrderStruct(input({ market, price: "0.000001", quantity: "0.5" }))).toThrow(
      /amount|proceeds|zero/i,
    );
  });

  it("still signs the smallest SELL whose proceeds are at least 1 wei", () => {
    const built = buildOrderStruct(input({ quantity: "0.000002" }));
    expect(built.struct.takerAmount).toBe(1n);
  });
});
