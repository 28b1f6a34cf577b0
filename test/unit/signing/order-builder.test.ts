import { describe, expect, it } from "vitest";
import { Dec } from "../../../src/core/decimal.js";
import { MmError } from "../../../src/core/errors.js";
import type { Hex } from "../../../src/core/types.js";
import type { Eip712Domain } from "../../../src/signing/domain.js";
import {
  OrderBuilder,
  type OrderBuilderOptions,
  type OrderRequest,
} from "../../../src/signing/order-builder.js";
import type { OrderStruct } from "../../../src/signing/order-type.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { recoverOrderSigner } from "../../../src/signing/recover.js";
import type { SignedDigest, Signer } from "../../../src/signing/signer.js";
import { DOMAIN_CONFIG, MARKET, TEST_KEY, TEST_VAULT, TEST_WALLET } from "./fixtures.js";

/** A hand-written fake around the real signer that counts what it was asked to sign. */
class CountingSigner implements Signer {
  readonly inner = new PrivateKeySigner(TEST_KEY);
  readonly address = this.inner.address;
  digests = 0;
  signDigest(digest: Hex): Promise<Hex> {
    this.digests++;
    return this.inner.signDigest(digest);
  }
  signOrder(order: OrderStruct, domain: Eip712Domain): Promise<SignedDigest> {
    return this.inner.signOrder(order, domain);
  }
}

function builder(over: Partial<OrderBuilderOptions["settings"]> = {}, salt?: () => bigint) {
  const signer = new CountingSigner();
  const options: OrderBuilderOptions = {
    settings: { wallet: TEST_WALLET, maker: "wallet", signatureType: 0, defaultFeeRateBps: 150, ...over },
    domain: DOMAIN_CONFIG,
    signer,
    ...(salt === undefined ? {} : { salt }),
  };
  return { b: new OrderBuilder(options), signer };
}

const REQ: OrderRequest = { market: MARKET, side: "buy", price: "0.53", quantity: "10", expiry: 0 };

async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof p === "function" ? p() : p);
    return undefined;
  } catch (err) {
    if (err instanceof MmError) return err.code;
    throw err;
  }
}

describe("OrderBuilder", () => {
  it("builds the struct and the place body", async () => {
    const { b } = builder({}, () => 987654321n);
    const o = await b.build({ ...REQ, price: "0.530", clientOrderId: "mm-x-1", expiry: 1_900_000_000 });
    expect(o.struct).toEqual({
      salt: 987654321n,
      maker: TEST_WALLET.toLowerCase(),
      signer: TEST_WALLET.toLowerCase(),
      taker: "0x0000000000000000000000000000000000000000",
      tokenId: BigInt(MARKET.tokenId),
      makerAmount: 5_300_000n,
      takerAmount: 10_000_000n,
      expiration: 1_900_000_000n,
      feeRateBps: 200n,
      side: 0,
      signatureType: 0,
    });
    expect(o.body).toEqual({
      marketId: "mkt-1",
      side: "buy",
      outcome: "YES",
      price: "0.53",
      quantity: "10",
      nonce: "987654321",
      expiry: 1_900_000_000,
      maker: TEST_WALLET.toLowerCase(),
      signature: o.signature,
      clientOrderId: "mm-x-1",
    });
    expect(await recoverOrderSigner(o.struct, o.signature, o.domain)).toBe(TEST_WALLET.toLowerCase());
  });

  it("omits optional body fields that were not given, passes type and timeInForce through", async () => {
    const { b } = builder();
    const plain = await b.build(REQ);
    expect("clientOrderId" in plain.body || "type" in plain.body || "timeInForce" in plain.body).toBe(false);
    const ioc = await b.build({ ...REQ, type: "limit", timeInForce: "ioc" });
    expect([ioc.body.type, ioc.body.timeInForce]).toEqual(["limit", "ioc"]);
    expect(await codeOf(b.build({ ...REQ, type: "market", timeInForce: "gtc" }))).toBe("invalid_tif");
  });

  it("accepts Dec price and quantity", async () => {
    const { b } = builder();
    const o = await b.build({ ...REQ, side: "sell", price: new Dec("0.07"), quantity: new Dec("0.000015") });
    expect([o.struct.makerAmount, o.struct.takerAmount, o.struct.side]).toEqual([15n, 1n, 1]);
  });

  it("refuses feeTakerBps above 1000 locally, before signing", async () => {
    const { b, signer } = builder();
    const err = await b.build({ ...REQ, market: { ...MARKET, feeTakerBps: 1001 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).code).toBe("fee_too_high");
    expect((err as MmError).details).toEqual({ bps: 1001, max: 1000 });
    expect(signer.digests).toBe(0);
    expect((await b.build({ ...REQ, market: { ...MARKET, feeTakerBps: 1000 } })).struct.feeRateBps).toBe(
      1000n,
    );
  });

  it("signs feeTakerBps verbatim, and the configured default only when it is null", async () => {
    const { b } = builder({ defaultFeeRateBps: 150 });
    expect((await b.build({ ...REQ, market: { ...MARKET, feeTakerBps: null } })).struct.feeRateBps).toBe(
      150n,
    );
    expect((await b.build({ ...REQ, market: { ...MARKET, feeTakerBps: 0 } })).struct.feeRateBps).toBe(0n);
    expect(await codeOf(() => builder({ defaultFeeRateBps: 1001 }))).toBe("fee_too_high");
  });

  it("neg-risk markets sign under the other verifying contract", async () => {
    const { b } = builder({}, () => 42n);
    const bin = await b.build(REQ);
    const neg = await b.build({ ...REQ, market: { ...MARKET, negRisk: true } });
    expect(bin.domain.verifyingContract).toBe(DOMAIN_CONFIG.exchangeContract.toLowerCase());
    expect(neg.domain.verifyingContract).toBe(DOMAIN_CONFIG.negRiskExchangeContract.toLowerCase());
    expect(neg.struct).toEqual(bin.struct);
    expect(neg.digest).not.toBe(bin.digest);
    const wallet = TEST_WALLET.toLowerCase();
    expect(await recoverOrderSigner(neg.struct, neg.signature, neg.domain)).toBe(wallet);
    expect(await recoverOrderSigner(neg.struct, neg.signature, bin.domain)).not.toBe(wallet);
  });

  it("makes orders from the vault when configured, still signed by the wallet", async () => {
    const { b } = builder({ maker: "vault", vault: TEST_VAULT, signatureType: 2 });
    const o = await b.build(REQ);
    expect(b.maker).toBe(TEST_VAULT.toLowerCase());
    expect([o.struct.maker, o.body.maker, o.struct.signer]).toEqual([
      TEST_VAULT.toLowerCase(),
      TEST_VAULT.toLowerCase(),
      TEST_WALLET.toLowerCase(),
    ]);
    expect(o.struct.signatureType).toBe(2);
    expect(await recoverOrderSigner(o.struct, o.signature, o.domain)).toBe(TEST_WALLET.toLowerCase());
  });

  it("refuses inconsistent settings", async () => {
    expect(await codeOf(() => builder({ maker: "vault" }))).toBe("vault_required");
    expect(await codeOf(() => builder({ wallet: TEST_VAULT }))).toBe("signer_mismatch");
    expect(await codeOf(() => builder({ wallet: "0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266" }))).toBe(
      "invalid_address",
    );
    expect(await codeOf(() => builder({ signatureType: -1 }))).toBe("invalid_signature_type");
  });

  it("draws a fresh CSPRNG salt for every order", async () => {
    const { b } = builder();
    const nonces = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const o = await b.build(REQ);
      expect(o.body.nonce).toBe(o.struct.salt.toString());
      expect(o.struct.salt < 1n << 256n).toBe(true);
      nonces.add(o.body.nonce);
    }
    expect(nonces.size).toBe(50);
    // 50 uniform 256-bit draws: all below 2^200 has probability 2^-2800; a truncated source would be.
    expect([...nonces].some((n) => BigInt(n) >= 1n << 200n)).toBe(true);
  });
});
