import { recoverPublicKey } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import type { Address, Hex } from "../../core/types.js";
import type { Eip712Domain } from "../../signing/domain.js";
import { type OrderStruct, orderDigest } from "../../signing/order-type.js";
import { PointTable, verifyWithTable } from "./secp256k1-tables.js";

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Answers "does this signature over this order recover to that wallet?" exactly as
 * recoverOrderSigner would, several times faster once the wallet has been seen.
 *
 * Recovery computes Q = r⁻¹(s·R − z·G) and compares Q with the wallet. For a wallet whose public
 * key is known the same answer comes from the verification equation: Q is the wallet's key exactly
 * when X = (z/s)·G + (r/s)·Q has x(X) = r and y(X) of the signature's parity (secp256k1-tables.ts).
 * The key and its table come from the wallet's first signature that recovers to it (viem's
 * recovery). Anything else (no key yet, malformed signature, v outside 27/28/0/1) takes that slow
 * path again.
 * @example if (await checker.recoversTo(struct, body.signature, domain, wallet)) accept();
 */
export class OrderSignatureChecker {
  readonly #keys = new Map<Address, PointTable>();
  readonly #maxKeys: number;

  /**
   * @param maxKeys wallets whose tables are kept (about 260 KB each, built in about 8 ms); the
   * least recently used is dropped first and rebuilt from its next signature.
   */
  constructor(maxKeys = 256) {
    this.#maxKeys = maxKeys;
  }

  /** True when `signature` over `struct` under `domain` recovers to `expected` (lowercase). */
  async recoversTo(
    struct: OrderStruct,
    signature: string,
    domain: Eip712Domain,
    expected: Address,
  ): Promise<boolean> {
    const digest = orderDigest(struct, domain);
    const parts = splitSignature(signature);
    const table = this.#keys.get(expected);
    if (parts !== undefined && table !== undefined) {
      // Least recently used goes first: a hit moves the wallet to the back of the map's order.
      this.#keys.delete(expected);
      this.#keys.set(expected, table);
      return verifyWithTable(table, BigInt(digest), parts.r, parts.s, parts.yOdd);
    }
    return this.#recoverAndRemember(digest, signature, expected);
  }

  async #recoverAndRemember(digest: Hex, signature: string, expected: Address): Promise<boolean> {
    if (!SIGNATURE.test(signature)) return false;
    let publicKey: Hex;
    try {
      publicKey = await recoverPublicKey({ hash: digest, signature: signature as Hex });
    } catch {
      return false;
    }
    if (publicKeyToAddress(publicKey).toLowerCase() !== expected) return false;
    if (this.#keys.size >= this.#maxKeys) {
      const oldest = this.#keys.keys().next().value;
      if (oldest !== undefined) this.#keys.delete(oldest);
    }
    // Uncompressed key: 0x04 ‖ x ‖ y.
    const x = BigInt(`0x${publicKey.slice(4, 68)}`);
    const y = BigInt(`0x${publicKey.slice(68, 132)}`);
    this.#keys.set(expected, new PointTable({ x, y }));
    return true;
  }
}

interface SignatureParts {
  readonly r: bigint;
  readonly s: bigint;
  readonly yOdd: boolean;
}

function splitSignature(signature: string): SignatureParts | undefined {
  if (!SIGNATURE.test(signature)) return undefined;
  const v = Number.parseInt(signature.slice(130), 16);
  const bit = v === 27 || v === 0 ? 0 : v === 28 || v === 1 ? 1 : -1;
  if (bit < 0) return undefined;
  return {
    r: BigInt(`0x${signature.slice(2, 66)}`),
    s: BigInt(`0x${signature.slice(66, 130)}`),
    yOdd: bit === 1,
  };
}
