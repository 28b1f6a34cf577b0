import { bytesToHex } from "viem";
import { ValidationError } from "../core/errors.js";
import type { Address, Hex } from "../core/types.js";
import { createStructEncoder } from "./eip712-encoder.js";

/**
 * What the config supplies for order signing. The spec does not show the domain values, so all of
 * them are configuration (README "Assumptions"); the verifying contract depends on the market kind.
 */
export interface SigningDomainConfig {
  readonly name: string;
  readonly version: string;
  readonly chainId: number;
  /** Verifying contract for binary markets. */
  readonly exchangeContract: Address;
  /** Verifying contract for neg-risk (multi-outcome) markets. */
  readonly negRiskExchangeContract: Address;
}

/** A complete EIP-712 domain with the four members mm uses. */
export interface Eip712Domain {
  readonly name: string;
  readonly version: string;
  readonly chainId: number;
  readonly verifyingContract: Address;
}

/** The EIP712Domain type in the member order EIP-712 prescribes. */
export const EIP712_DOMAIN_FIELDS = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
] as const;

const domainEncoder = createStructEncoder<Eip712Domain>("EIP712Domain", EIP712_DOMAIN_FIELDS);
// Domains come from config (two per deployment); the bound only guards against a caller that
// feeds arbitrary domains, e.g. a mock exchange verifying hostile input.
const MAX_CACHED = 64;
const cache = new Map<string, Uint8Array>();

/**
 * The domain an order for this market is signed under: the neg-risk exchange for neg-risk markets,
 * the binary exchange otherwise.
 * @example orderDomain(config, market.negRisk).verifyingContract
 */
export function orderDomain(config: SigningDomainConfig, negRisk: boolean): Eip712Domain {
  return {
    name: config.name,
    version: config.version,
    chainId: config.chainId,
    verifyingContract: negRisk ? config.negRiskExchangeContract : config.exchangeContract,
  };
}

/** The EIP-712 domain separator, hashStruct(EIP712Domain), as 0x-hex (computed once per domain). */
export function domainSeparator(domain: Eip712Domain): Hex {
  return bytesToHex(domainSeparatorBytes(domain));
}

/**
 * Cached domain separator bytes for the hot path. The returned array is shared: never mutate it.
 * Throws ValidationError `invalid_domain` for a chain id that is not a positive safe integer.
 */
export function domainSeparatorBytes(domain: Eip712Domain): Uint8Array {
  const key = JSON.stringify([
    domain.name,
    domain.version,
    domain.chainId,
    domain.verifyingContract.toLowerCase(),
  ]);
  let sep = cache.get(key);
  if (sep === undefined) {
    if (!Number.isSafeInteger(domain.chainId) || domain.chainId <= 0) {
      throw new ValidationError(
        "invalid_domain",
        `chainId must be a positive integer, got ${domain.chainId}`,
        {
          chainId: domain.chainId,
        },
      );
    }
    sep = domainEncoder.hashStruct(domain);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, sep);
  }
  return sep;
}
