import { privateKeyToAddress, sign } from "viem/accounts";
import { ValidationError } from "../core/errors.js";
import type { Address, Hex } from "../core/types.js";
import type { Eip712Domain } from "./domain.js";
import { type OrderStruct, orderDigest } from "./order-type.js";
import type { SignedDigest, Signer } from "./signer.js";

const KEY = /^(?:0x)?([0-9a-fA-F]{64})$/;
const DIGEST = /^0x[0-9a-fA-F]{64}$/;
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * A Signer over an in-process secp256k1 key (viem, i.e. @noble/curves; RFC 6979 deterministic,
 * low-s). The key lives in a private field and is absent from toString, JSON and util.inspect, so
 * logging the signer (or an object holding it) cannot leak it.
 * @example
 * const signer = new PrivateKeySigner(process.env.MM_WALLET_PRIVATE_KEY ?? "");
 * const { signature } = await signer.signOrder(struct, domain);
 */
export class PrivateKeySigner implements Signer {
  readonly #privateKey: Hex;
  readonly address: Address;

  /**
   * @param privateKey 32-byte hex, with or without 0x; surrounding whitespace (a key file's
   * trailing newline) is ignored. Throws ValidationError `invalid_private_key`, whose message and
   * details never contain the key.
   */
  constructor(privateKey: string) {
    const m = typeof privateKey === "string" ? KEY.exec(privateKey.trim()) : null;
    const hex = m?.[1];
    const k = hex === undefined ? 0n : BigInt(`0x${hex}`);
    if (hex === undefined || k === 0n || k >= CURVE_ORDER) {
      throw new ValidationError(
        "invalid_private_key",
        "wallet private key must be 32 bytes of hex within the secp256k1 order",
        {},
      );
    }
    this.#privateKey = `0x${hex.toLowerCase()}`;
    this.address = privateKeyToAddress(this.#privateKey).toLowerCase() as Address;
  }

  /** Signs a 32-byte digest; throws ValidationError `invalid_digest` for anything else. */
  async signDigest(digest: Hex): Promise<Hex> {
    if (!DIGEST.test(digest)) {
      throw new ValidationError("invalid_digest", "digest must be 32 bytes of 0x-hex", {});
    }
    return sign({ hash: digest, privateKey: this.#privateKey, to: "hex" });
  }

  async signOrder(order: OrderStruct, domain: Eip712Domain): Promise<SignedDigest> {
    const digest = orderDigest(order, domain);
    return { digest, signature: await this.signDigest(digest) };
  }

  toString(): string {
    return `PrivateKeySigner(${this.address})`;
  }

  toJSON(): { type: "private-key"; address: Address } {
    return { type: "private-key", address: this.address };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}
