import { recoverAddress } from "viem";
import type { Address, Hex } from "../core/types.js";
import type { Eip712Domain } from "./domain.js";
import { type OrderStruct, orderDigest } from "./order-type.js";

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * The address that signed `struct` under `domain`, lowercase, or null when `signature` is not a
 * valid 65-byte secp256k1 signature (the spec's `bad_signature` reports `recovered: null` then).
 * A signature over different fields or another domain recovers to some other address, so compare
 * the result with the expected signer. Throws ValidationError only for a malformed struct.
 * @example (await recoverOrderSigner(built.struct, built.signature, built.domain)) === wallet
 */
export async function recoverOrderSigner(
  struct: OrderStruct,
  signature: Hex,
  domain: Eip712Domain,
): Promise<Address | null> {
  const hash = orderDigest(struct, domain);
  if (typeof signature !== "string" || !SIGNATURE.test(signature)) return null;
  try {
    const recovered = await recoverAddress({ hash, signature });
    return recovered.toLowerCase() as Address;
  } catch {
    // Invalid r/s or recovery id: not a signature at all, as opposed to someone else's.
    return null;
  }
}
