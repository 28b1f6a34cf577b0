import type { Address, Hex } from "../core/types.js";
import { domainSeparatorBytes, type Eip712Domain } from "./domain.js";
import { createStructEncoder, typedDataDigest } from "./eip712-encoder.js";

/**
 * The 11-field order struct the exchange verifies. Amounts are 6-decimal wei; side 0 = BUY, 1 = SELL.
 * Field types follow Polymarket's CTF exchange (uint8 side and signatureType, uint256 elsewhere).
 */
export interface OrderStruct {
  readonly salt: bigint;
  readonly maker: Address;
  readonly signer: Address;
  /** Always the zero address: orders are public. */
  readonly taker: Address;
  readonly tokenId: bigint;
  readonly makerAmount: bigint;
  readonly takerAmount: bigint;
  /** Unix seconds; 0 = no expiry. */
  readonly expiration: bigint;
  readonly feeRateBps: bigint;
  readonly side: 0 | 1;
  readonly signatureType: number;
}

/** The `Order` type in signing order. */
export const ORDER_FIELDS = [
  { name: "salt", type: "uint256" },
  { name: "maker", type: "address" },
  { name: "signer", type: "address" },
  { name: "taker", type: "address" },
  { name: "tokenId", type: "uint256" },
  { name: "makerAmount", type: "uint256" },
  { name: "takerAmount", type: "uint256" },
  { name: "expiration", type: "uint256" },
  { name: "feeRateBps", type: "uint256" },
  { name: "side", type: "uint8" },
  { name: "signatureType", type: "uint8" },
] as const;

/** Compiled encoder of the 11-field Order; its type hash is computed once, here. */
export const orderEncoder = createStructEncoder<OrderStruct>("Order", ORDER_FIELDS);

/** The zero address, the struct's taker. */
export const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000";

/**
 * The EIP-712 digest an order's signature covers.
 * @example orderDigest(struct, orderDomain(config, market.negRisk))
 */
export function orderDigest(order: OrderStruct, domain: Eip712Domain): Hex {
  return typedDataDigest(domainSeparatorBytes(domain), orderEncoder.hashStruct(order));
}
