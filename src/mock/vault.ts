import { keccak256, toBytes } from "viem";
import type { Address } from "../core/types.js";

/**
 * The custody vault the mock's "factory" derives for a wallet: the last 20 bytes of
 * keccak256("mm-mock-vault" ‖ wallet). The real factory's derivation (CREATE2 salt and init code)
 * is not shown in the spec; any deterministic, collision-free mapping serves the mock's rules
 * (maker may be the wallet or its vault).
 * @example vaultOf("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266") // "0x…" (40 hex, lowercase)
 */
export function vaultOf(wallet: Address): Address {
  const digest = keccak256(toBytes(`mm-mock-vault${wallet.toLowerCase()}`));
  return `0x${digest.slice(-40)}` as Address;
}
