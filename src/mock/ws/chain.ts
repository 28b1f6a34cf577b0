import { keccak256, toBytes } from "viem";
import type { Hex } from "../../core/types.js";

/**
 * The mock's stand-in for the chain indexer's identifiers. Nothing settles on chain, so txHash,
 * orderHash and blockNumber are derived deterministically: the same scenario, seed and calls
 * always give the same values, and two trades never share a txHash.
 */

/** Block time of the simulated chain (Polygon-like), ms. */
export const BLOCK_MS = 2_000;

/** Transaction hash of a trade's settlement: keccak256("mm-mock-tx:" ‖ tradeId). */
export function settlementTxHash(tradeId: string): Hex {
  return keccak256(toBytes(`mm-mock-tx:${tradeId}`));
}

/**
 * On-chain hash of an order (the spec's trade_settled `orderHash`: the maker order, whose fill
 * event the indexer sees). The venue keeps no signed struct, so: keccak256("mm-mock-order:" ‖ id).
 */
export function orderHash(orderId: string): Hex {
  return keccak256(toBytes(`mm-mock-order:${orderId}`));
}

/** The block a transaction mined at `tsMs` lands in. */
export function blockNumberAt(tsMs: number): number {
  return Math.floor(tsMs / BLOCK_MS);
}
