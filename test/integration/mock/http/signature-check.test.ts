import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Address, Hex } from "../../../../src/core/types.js";
import { OrderSignatureChecker } from "../../../../src/mock/http/order-signature.js";
import { N } from "../../../../src/mock/http/secp256k1-tables.js";
import { orderDomain } from "../../../../src/signing/domain.js";
import type { OrderStruct } from "../../../../src/signing/order-type.js";
import { PrivateKeySigner } from "../../../../src/signing/private-key-signer.js";
import { recoverOrderSigner } from "../../../../src/signing/recover.js";

/**
 * The mock's fast signature check (cached public key, precomputed tables) must agree with full
 * recovery (recoverOrderSigner, viem) on every input: valid signatures, the high-s twin, a flipped
 * recovery bit, another signer, a changed field, and garbage.
 */

const KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
].map((k) => new PrivateKeySigner(k));
const CONFIG = {
  name: "CTF Exchange",
  version: "1",
  chainId: 31337,
  exchangeContract: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  negRiskExchangeContract: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
} as const;

const uint = (bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });
const structArb = fc.record({
  signerIndex: fc.integer({ min: 0, max: KEYS.length - 1 }),
  salt: uint(256),
  tokenId: uint(256),
  makerAmount: uint(64),
  takerAmount: uint(64),
  expiration: uint(32),
  feeRateBps: fc.integer({ min: 0, max: 1000 }),
  side: fc.constantFrom(0 as const, 1 as const),
  negRisk: fc.boolean(),
});

function twin(sig: Hex): Hex {
  const s = BigInt(`0x${sig.slice(66, 130)}`);
  const v = Number.parseInt(sig.slice(130), 16);
  return `${sig.slice(0, 66)}${(N - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
}

function flipV(sig: Hex): Hex {
  return `${sig.slice(0, 130)}${sig.endsWith("1b") ? "1c" : "1b"}` as Hex;
}

describe("OrderSignatureChecker agrees with full recovery", () => {
  const checker = new OrderSignatureChecker();

  it("on valid, high-s, flipped-v, foreign, tampered and malformed signatures", async () => {
    await fc.assert(
      fc.asyncProperty(structArb, fc.integer({ min: 0, max: 5 }), async (a, variant) => {
        const signer = KEYS[a.signerIndex] as PrivateKeySigner;
        const wallet = signer.address as Address;
        const struct: OrderStruct = {
          salt: a.salt,
          maker: wallet,
          signer: wallet,
          taker: "0x0000000000000000000000000000000000000000",
          tokenId: a.tokenId,
          makerAmount: a.makerAmount,
          takerAmount: a.takerAmount,
          expiration: a.expiration,
          feeRateBps: BigInt(a.feeRateBps),
          side: a.side,
          signatureType: 0,
        };
        const domain = orderDomain(CONFIG, a.negRisk);
        const { signature } = await signer.signOrder(struct, domain);
        const other = KEYS[(a.signerIndex + 1) % KEYS.length] as PrivateKeySigner;
        const cases: [OrderStruct, string][] = [
          [struct, signature],
          [struct, twin(signature)],
          [struct, flipV(signature)],
          [struct, (await other.signOrder(struct, domain)).signature],
          [{ ...struct, makerAmount: struct.makerAmount + 1n }, signature],
          [struct, `0x${"00".repeat(64)}1b`],
        ];
        const [s, sig] = cases[variant] as [OrderStruct, string];
        // Prime the key cache so the fast path is what answers.
        await checker.recoversTo(struct, signature, domain, wallet);
        const fast = await checker.recoversTo(s, sig, domain, wallet);
        const slow = (await recoverOrderSigner(s, sig as Hex, domain)) === wallet;
        expect(fast).toBe(slow);
        if (variant <= 1) expect(fast).toBe(true);
        if (variant >= 3) expect(fast).toBe(false);
      }),
      { numRuns: 120, seed: 20260401 },
    );
  });

  it("stays exact when the key cache evicts (one table for three alternating wallets)", async () => {
    const small = new OrderSignatureChecker(1);
    const domain = orderDomain(CONFIG, false);
    for (let i = 0; i < 9; i++) {
      const signer = KEYS[i % KEYS.length] as PrivateKeySigner;
      const wallet = signer.address as Address;
      const struct: OrderStruct = {
        salt: BigInt(i),
        maker: wallet,
        signer: wallet,
        taker: "0x0000000000000000000000000000000000000000",
        tokenId: 1n,
        makerAmount: 500_000n,
        takerAmount: 1_000_000n,
        expiration: 0n,
        feeRateBps: 200n,
        side: 0,
        signatureType: 0,
      };
      const { signature } = await signer.signOrder(struct, domain);
      expect(await small.recoversTo(struct, signature, domain, wallet)).toBe(true);
      expect(await small.recoversTo(struct, flipV(signature), domain, wallet)).toBe(false);
    }
  });
});
