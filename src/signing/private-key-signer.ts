import { privateKeyToAddress, sign } from "viem/accounts";
import { ValidationError } from "../core/errors.js";
import type { Address, Hex } from "../core/types.js";
import type { Eip712Domain } from "./domain.js";
import { NoncePool } from "./nonce-pool.js";
import { type OrderStruct, orderDigest } from "./order-type.js";
import type { SignedDigest, Signer } from "./signer.js";

const KEY = /^(?:0x)?([0-9a-fA-F]{64})$/;
const DIGEST = /^0x[0-9a-fA-F]{64}$/;
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Options of a PrivateKeySigner. */
export interface PrivateKeySignerOptions {
  /**
   * Precomputed nonces kept ready (see NoncePool): signing then costs microseconds instead of a
   * scalar multiplication; 0 (the default) signs RFC 6979 deterministically every time.
   */
  readonly noncePool?: number;
}

/**
 * A Signer over an in-process secp256k1 key (viem, i.e. @noble/curves; RFC 6979 deterministic,
 * low-s). The key lives in a private field and is absent from toString, JSON and util.inspect, so
 * logging the signer (or an object holding it) cannot leak it.
 * @example
 * const signer = new PrivateKeySigner(process.env.MM_PRIVATE_KEY ?? "");
 * const { signature } = await signer.signOrder(struct, domain);
 */
export class PrivateKeySigner implements Signer {
  readonly #privateKey: Hex;
  readonly #scalar: bigint;
  readonly #pool: NoncePool | undefined;
  readonly address: Address;

  /**
   * @param privateKey 32-byte hex, with or without 0x; surrounding whitespace (a key file's
   * trailing newline) is ignored. Throws ValidationError `invalid_private_key`, whose message and
   * details never contain the key.
   */
  constructor(privateKey: string, options: PrivateKeySignerOptions = {}) {
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
    this.#scalar = k;
    this.#pool = options.noncePool ? new NoncePool(options.noncePool) : undefined;
    this.address = privateKeyToAddress(this.#privateKey).toLowerCase() as Address;
  }

  /** Signs a 32-byte digest; throws ValidationError `invalid_digest` for anything else. */
  async signDigest(digest: Hex): Promise<Hex> {
    if (!DIGEST.test(digest)) {
      throw new ValidationError("invalid_digest", "digest must be 32 bytes of 0x-hex", {});
    }
    const fast = this.#pool?.sign(BigInt(digest), this.#scalar);
    if (fast !== undefined) {
      return `0x${hex32(fast.r)}${hex32(fast.s)}${fast.recovery === 0 ? "1b" : "1c"}`;
    }
    return sign({ hash: digest, privateKey: this.#privateKey, to: "hex" });
  }

  /** Fills the nonce pool now (start-up, benchmarks); no-op without a pool. */
  warmUp(): void {
    this.#pool?.fill();
  }

  /** Stops the nonce pool's background refill and forgets its nonces. */
  close(): void {
    this.#pool?.close();
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

function hex32(n: bigint): string {
  return n.toString(16).padStart(64, "0");
}
