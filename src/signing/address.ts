import { isAddress } from "viem";
import { ValidationError } from "../core/errors.js";
import type { Address } from "../core/types.js";

/**
 * Validates an address (any case; a mixed-case one must carry a correct EIP-55 checksum) and
 * returns it lowercased, the form the exchange uses in bodies and responses.
 * Throws ValidationError `invalid_address`.
 * @example normalizeAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "wallet") // "0xf39fd6…2266"
 */
export function normalizeAddress(value: unknown, field: string): Address {
  if (typeof value !== "string" || !isAddress(value)) {
    throw new ValidationError("invalid_address", `${field} is not a valid address`, {
      field,
      value: typeof value === "string" ? value.slice(0, 64) : typeof value,
    });
  }
  return value.toLowerCase() as Address;
}
