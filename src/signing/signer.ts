import type { Address, Hex } from "../core/types.js";
import type { Eip712Domain } from "./domain.js";
import type { OrderStruct } from "./order-type.js";

/** An order digest and the wallet's signature over it. */
export interface SignedDigest {
  readonly digest: Hex;
  /** 65-byte r ‖ s ‖ v (v = 27 or 28), lowercase 0x-hex. */
  readonly signature: Hex;
}

/**
 * The wallet key behind an interface: the engine signs through this port and never sees key
 * material. Implementations: PrivateKeySigner (an in-process key); a remote or hardware signer
 * would implement the same two methods.
 */
export interface Signer {
  /** The signing wallet, lowercase. */
  readonly address: Address;
  /** Signs a 32-byte digest (already EIP-712 hashed). */
  signDigest(digest: Hex): Promise<Hex>;
  /** Hashes the order under the domain (EIP-712) and signs it. */
  signOrder(order: OrderStruct, domain: Eip712Domain): Promise<SignedDigest>;
}
