import { keccak256, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import type { Address } from "../../../src/core/types.js";
import { domainSeparatorBytes } from "../../../src/signing/domain.js";
import {
  createStructEncoder,
  type Eip712Field,
  typedDataDigest,
} from "../../../src/signing/eip712-encoder.js";
import { PrivateKeySigner } from "../../../src/signing/private-key-signer.js";
import { recoverOrderSigner } from "../../../src/signing/recover.js";
import { TEST_KEY, TEST_WALLET } from "./fixtures.js";

/** Polymarket CTF Exchange V1 Order: mm's 11 fields plus `uint256 nonce` after `expiration`. */
function polymarketV1Fields(enumType: "uint8" | "uint256"): Eip712Field[] {
  return [
    { name: "salt", type: "uint256" },
    { name: "maker", type: "address" },
    { name: "signer", type: "address" },
    { name: "taker", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "makerAmount", type: "uint256" },
    { name: "takerAmount", type: "uint256" },
    { name: "expiration", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "feeRateBps", type: "uint256" },
    { name: "side", type: enumType },
    { name: "signatureType", type: enumType },
  ];
}

const DOMAIN = {
  name: "Polymarket CTF Exchange",
  version: "1",
  chainId: 80002,
  verifyingContract: "0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40" as Address,
};

const ORDER = {
  salt: 479249096354n,
  maker: TEST_WALLET,
  signer: TEST_WALLET,
  taker: "0x0000000000000000000000000000000000000000",
  tokenId: 1234n,
  makerAmount: 100000000n,
  takerAmount: 50000000n,
  expiration: 0n,
  nonce: 0n,
  feeRateBps: 100n,
  side: 0,
  signatureType: 0,
};

const PUBLISHED_SIGNATURE =
  "0x302cd9abd0b5fcaa202a344437ec0b6660da984e24ae9ad915a592a90facf5a51bb8a873cd8d270f070217fea1986531d5eec66f1162a81f66e026db653bf7ce1c";

describe("the generic encoder reproduces Polymarket's published V1 order vector", () => {
  const signer = new PrivateKeySigner(TEST_KEY);

  it("signs the vector to the published signature", async () => {
    const encoder = createStructEncoder<typeof ORDER>("Order", polymarketV1Fields("uint8"));
    expect(encoder.typeHash).toBe(
      keccak256(
        stringToHex(
          "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount," +
            "uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)",
        ),
      ),
    );
    const digest = typedDataDigest(domainSeparatorBytes(DOMAIN), encoder.hashStruct(ORDER));
    expect(await signer.signDigest(digest)).toBe(PUBLISHED_SIGNATURE);
  });

  it("depends on side and signatureType being uint8, as in the CTF exchange", async () => {
    // Why the field types matter: the same values under uint256 enums hash to another digest.
    const encoder = createStructEncoder<typeof ORDER>("Order", polymarketV1Fields("uint256"));
    const digest = typedDataDigest(domainSeparatorBytes(DOMAIN), encoder.hashStruct(ORDER));
    expect(await signer.signDigest(digest)).not.toBe(PUBLISHED_SIGNATURE);
  });

  it("mm's 11-field type (no nonce) is a different struct under the same domain", async () => {
    const { nonce: _nonce, ...eleven } = ORDER;
    const built = { ...eleven, side: 0 as const, taker: eleven.taker as Address };
    const recovered = await recoverOrderSigner(built, PUBLISHED_SIGNATURE, DOMAIN);
    expect(recovered).not.toBeNull();
    expect(recovered).not.toBe(TEST_WALLET.toLowerCase());
  });
});
