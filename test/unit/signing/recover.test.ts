import { describe, expect, it } from "vitest";
import type { Hex } from "../../../src/core/types.js";
import { orderDomain } from "../../../src/signing/domain.js";
import { buildOrderStruct } from "../../../src/signing/order-struct.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { recoverOrderSigner } from "../../../src/signing/recover.js";
import { DOMAIN_CONFIG, MARKET, TEST_KEY, TEST_WALLET } from "./fixtures.js";

const signer = new PrivateKeySigner(TEST_KEY);
const domain = orderDomain(DOMAIN_CONFIG, false);
const { struct } = buildOrderStruct({
  market: MARKET,
  side: "sell",
  price: "0.41",
  quantity: "25.5",
  expiry: 0,
  salt: 77n,
  maker: TEST_WALLET,
  signer: TEST_WALLET,
  signatureType: 0,
  defaultFeeRateBps: 0,
});

describe("recoverOrderSigner", () => {
  it("round-trips: a signed order recovers to its signer", async () => {
    const { signature } = await signer.signOrder(struct, domain);
    expect(await recoverOrderSigner(struct, signature, domain)).toBe(TEST_WALLET.toLowerCase());
  });

  it("a changed field recovers to someone else (how the exchange sees a fee mismatch)", async () => {
    const { signature } = await signer.signOrder(struct, domain);
    for (const tampered of [
      { ...struct, feeRateBps: struct.feeRateBps + 1n },
      { ...struct, takerAmount: struct.takerAmount - 1n },
      { ...struct, side: 0 as const },
    ]) {
      const got = await recoverOrderSigner(tampered, signature, domain);
      expect(got).toMatch(/^0x[0-9a-f]{40}$/);
      expect(got).not.toBe(TEST_WALLET.toLowerCase());
    }
  });

  it("returns null for something that is not a signature", async () => {
    const { signature } = await signer.signOrder(struct, domain);
    const zeroRS = `0x${"00".repeat(64)}1b` as Hex;
    const badV = `${signature.slice(0, 130)}1d` as Hex;
    for (const bad of ["0x", signature.slice(0, 100), `${signature.slice(0, 131)}z`, zeroRS, badV] as Hex[]) {
      expect(await recoverOrderSigner(struct, bad, domain)).toBeNull();
    }
  });
});
