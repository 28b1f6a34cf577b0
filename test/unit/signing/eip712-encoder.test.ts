import { TypedDataEncoder } from "ethers";
import fc from "fast-check";
import { bytesToHex } from "viem";
import { describe, expect, it } from "vitest";
import { MmError } from "../../../src/core/errors.js";
import type { Address } from "../../../src/core/types.js";
import { domainSeparator } from "../../../src/signing/domain.js";
import { createStructEncoder, type Eip712Field } from "../../../src/signing/eip712-encoder.js";
import { ORDER_FIELDS, orderEncoder } from "../../../src/signing/order-type.js";
import { ETHERS_ORDER_TYPES } from "./fixtures.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof MmError) return err.code;
    throw err;
  }
}

const MAX = (1n << 256n) - 1n;
const ORDER = {
  salt: MAX,
  maker: "0x00000000000000000000000000000000000000ff" as Address,
  signer: "0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF" as Address,
  taker: "0x0000000000000000000000000000000000000000" as Address,
  tokenId: 1n << 255n,
  makerAmount: (1n << 64n) + 1n,
  takerAmount: 1n << 128n,
  expiration: 0n,
  feeRateBps: 1000n,
  side: 1 as const,
  signatureType: 255,
};

describe("createStructEncoder", () => {
  it("encodes the Order type as EIP-712 prescribes", () => {
    const ethers = TypedDataEncoder.from(ETHERS_ORDER_TYPES);
    expect(orderEncoder.encodedType).toBe(
      "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount," +
        "uint256 takerAmount,uint256 expiration,uint256 feeRateBps,uint8 side,uint8 signatureType)",
    );
    expect(orderEncoder.encodedType).toBe(ethers.encodeType("Order"));
    expect(bytesToHex(orderEncoder.hashStruct(ORDER))).toBe(ethers.hashStruct("Order", ORDER));
  });

  it("follows the declared field order (a permuted type is another struct)", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...ORDER_FIELDS], { minLength: 11, maxLength: 11 }), (fields) => {
        const enc = createStructEncoder<typeof ORDER>("Order", fields);
        const ours = bytesToHex(enc.hashStruct(ORDER));
        expect(ours).toBe(
          TypedDataEncoder.from({ Order: fields.map((f) => ({ ...f })) }).hashStruct("Order", ORDER),
        );
        const same = fields.every((f, i) => f.name === ORDER_FIELDS[i]?.name);
        expect(ours === bytesToHex(orderEncoder.hashStruct(ORDER))).toBe(same);
      }),
      { numRuns: 50 },
    );
  });

  it("handles every uintN width at its bounds", () => {
    for (let bits = 8; bits <= 256; bits += 8) {
      const fields: Eip712Field[] = [{ name: "v", type: `uint${bits}` }];
      const enc = createStructEncoder<{ v: bigint }>("T", fields);
      const max = (1n << BigInt(bits)) - 1n;
      const ethers = TypedDataEncoder.from({ T: fields.map((f) => ({ ...f })) });
      expect(bytesToHex(enc.hashStruct({ v: max }))).toBe(ethers.hashStruct("T", { v: max }));
      expect(codeOf(() => enc.hashStruct({ v: max + 1n }))).toBe("invalid_eip712_value");
    }
  });

  it("refuses values that do not fit their type", () => {
    const bad: Array<Record<string, unknown>> = [
      { side: 256 },
      { side: -1 },
      { side: 0.5 },
      { salt: -1n },
      { salt: MAX + 1n },
      { salt: "1" },
      { maker: "0x1234" },
      { maker: "f39fd6e51aad88f6f4ce6ab8827279cfffb92266" },
      { taker: undefined },
    ];
    for (const patch of bad) {
      expect(codeOf(() => orderEncoder.hashStruct({ ...ORDER, ...patch } as typeof ORDER))).toBe(
        "invalid_eip712_value",
      );
    }
  });

  it("refuses types it cannot encode", () => {
    for (const type of ["int256", "bytes", "bytes32", "uint7", "uint264", "uint0", "Order", "uint256[]"]) {
      expect(codeOf(() => createStructEncoder("T", [{ name: "x", type }]))).toBe("unsupported_eip712_type");
    }
    const dup = [
      { name: "x", type: "uint8" },
      { name: "x", type: "uint8" },
    ];
    expect(codeOf(() => createStructEncoder("T", dup))).toBe("unsupported_eip712_type");
    expect(codeOf(() => createStructEncoder("T(", []))).toBe("unsupported_eip712_type");
  });
});

describe("domainSeparator", () => {
  it("equals ethers' hashDomain for arbitrary domains", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.string({ maxLength: 10 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        (name, version, chainId, contract) => {
          const domain = { name, version, chainId, verifyingContract: bytesToHex(contract) as Address };
          expect(domainSeparator(domain)).toBe(TypedDataEncoder.hashDomain(domain));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("refuses a chain id that is not a positive integer", () => {
    const verifyingContract: Address = "0x0000000000000000000000000000000000000001";
    for (const chainId of [0, -1, 1.5]) {
      expect(codeOf(() => domainSeparator({ name: "x", version: "1", chainId, verifyingContract }))).toBe(
        "invalid_domain",
      );
    }
  });
});
