import { TypedDataEncoder, verifyTypedData, Wallet } from "ethers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderBuilder } from "../../../src/signing/order-builder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { DOMAIN_CONFIG, ETHERS_ORDER_TYPES, TEST_VAULT, weiString } from "./fixtures.js";

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const TICKS_WEI = [1n, 100n, 1_000n, 5_000n, 10_000n, 25_000n, 30_000n, 50_000n, 100_000n];

const orderArb = fc
  .record({
    tickWei: fc.constantFrom(...TICKS_WEI),
    mFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    qtyWei: fc.bigInt({ min: 1n, max: 10n ** 13n }),
    side: fc.constantFrom("buy" as const, "sell" as const),
    negRisk: fc.boolean(),
    feeTakerBps: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
    defaultFeeRateBps: fc.integer({ min: 0, max: 1000 }),
    expiry: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 40 })),
    key: fc.bigInt({ min: 1n, max: CURVE_ORDER - 1n }),
    vault: fc.boolean(),
    signatureType: fc.integer({ min: 0, max: 2 }),
    tokenId: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
    salt: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
  })
  .map((o) => {
    // Index of the price on the tick grid, in [1, last on-grid step below 1 − tick].
    const steps = (1_000_000n - o.tickWei) / o.tickWei;
    const m = 1n + BigInt(Math.floor(o.mFraction * Number(steps - 1n)));
    const priceWei = m * o.tickWei;
    // A SELL whose proceeds floor to 0 is refused before signing (dust-proceeds.test.ts): the
    // smallest quantity with proceeds of 1 micro-USDC at least.
    const least = (1_000_000n + priceWei - 1n) / priceWei;
    const qtyWei = o.side === "sell" && o.qtyWei < least ? least : o.qtyWei;
    return { ...o, priceWei, qtyWei };
  });

describe("order signing agrees with ethers v6 (independent EIP-712 + secp256k1)", () => {
  it("digest and signature match for 150 random orders", async () => {
    await fc.assert(
      fc.asyncProperty(orderArb, async (o) => {
        const key = `0x${o.key.toString(16).padStart(64, "0")}`;
        const wallet = new Wallet(key);
        const signer = new PrivateKeySigner(key);
        const builder = new OrderBuilder({
          settings: {
            wallet: wallet.address as `0x${string}`,
            maker: o.vault ? "vault" : "wallet",
            vault: TEST_VAULT,
            signatureType: o.signatureType,
            defaultFeeRateBps: o.defaultFeeRateBps,
          },
          domain: DOMAIN_CONFIG,
          signer,
          salt: () => o.salt,
        });
        const built = await builder.build({
          market: {
            marketId: "m",
            tokenId: o.tokenId.toString(),
            outcome: "YES",
            feeTakerBps: o.feeTakerBps,
            negRisk: o.negRisk,
            tickSize: weiString(o.tickWei),
          },
          side: o.side,
          price: weiString(o.priceWei),
          quantity: weiString(o.qtyWei),
          expiry: o.expiry,
        });

        const domain = {
          name: DOMAIN_CONFIG.name,
          version: DOMAIN_CONFIG.version,
          chainId: DOMAIN_CONFIG.chainId,
          verifyingContract: o.negRisk
            ? DOMAIN_CONFIG.negRiskExchangeContract
            : DOMAIN_CONFIG.exchangeContract,
        };
        // The struct as ethers is given it, with fields written out from the test's own inputs.
        const value = {
          salt: o.salt,
          maker: o.vault ? TEST_VAULT : wallet.address,
          signer: wallet.address,
          taker: "0x0000000000000000000000000000000000000000",
          tokenId: o.tokenId,
          makerAmount: built.struct.makerAmount,
          takerAmount: built.struct.takerAmount,
          expiration: BigInt(o.expiry),
          feeRateBps: BigInt(o.feeTakerBps ?? o.defaultFeeRateBps),
          side: o.side === "buy" ? 0 : 1,
          signatureType: o.signatureType,
        };
        const digest = TypedDataEncoder.hash(domain, ETHERS_ORDER_TYPES, value);
        expect(built.digest).toBe(digest);
        expect(built.signature).toBe(wallet.signingKey.sign(digest).serialized);
        expect(verifyTypedData(domain, ETHERS_ORDER_TYPES, value, built.signature)).toBe(wallet.address);
        expect(built.body.nonce).toBe(o.salt.toString());
        expect(built.body.maker).toBe(value.maker.toLowerCase());
      }),
      { numRuns: 150 },
    );
  });

  it("signOrder equals ethers signTypedData", async () => {
    const wallet = Wallet.createRandom();
    const signer = new PrivateKeySigner(wallet.privateKey);
    const domain = { ...DOMAIN_CONFIG, verifyingContract: DOMAIN_CONFIG.exchangeContract };
    const order = {
      salt: 12345678901234567890n,
      maker: signer.address,
      signer: signer.address,
      taker: "0x0000000000000000000000000000000000000000" as const,
      tokenId: 42n,
      makerAmount: 5_300_000n,
      takerAmount: 10_000_000n,
      expiration: 1_900_000_000n,
      feeRateBps: 200n,
      side: 0 as const,
      signatureType: 0,
    };
    const ethersDomain = {
      name: domain.name,
      version: domain.version,
      chainId: domain.chainId,
      verifyingContract: domain.verifyingContract,
    };
    const { digest, signature } = await signer.signOrder(order, domain);
    expect(digest).toBe(TypedDataEncoder.hash(ethersDomain, ETHERS_ORDER_TYPES, order));
    expect(signature).toBe(await wallet.signTypedData(ethersDomain, ETHERS_ORDER_TYPES, order));
  });
});
