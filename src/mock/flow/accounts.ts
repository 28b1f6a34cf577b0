import { keccak256, toBytes } from "viem";
import type { Address } from "../../core/types.js";
import { USDC } from "../../venue/ledger.js";
import type { SimVenue } from "../../venue/sim-venue.js";

/**
 * The flow's taker account: an address derived from the flow wallet (last 20 bytes of
 * keccak256("mm-mock-flow-taker" ‖ wallet)). The flow needs two ledger accounts because the
 * venue's self-trade prevention (`cancel_resting`) cancels a wallet's own resting orders when that
 * wallet's incoming order crosses them: takers sent from the liquidity wallet would delete the
 * background levels instead of trading with them. With a separate taker account, takers trade
 * against the whole book (the flow's levels and every other wallet's quotes) in price-time
 * priority, and every print is a real trade. The account is unknown to the directory, so no API
 * key can act as it.
 * @example flowTakerAccount("0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc") // "0x…" (lowercase)
 */
export function flowTakerAccount(flowWallet: Address): Address {
  const digest = keccak256(toBytes(`mm-mock-flow-taker${flowWallet.toLowerCase()}`));
  return `0x${digest.slice(-40)}` as Address;
}

/**
 * Moves half of the flow wallet's available USDC and half of each of its share balances to the
 * taker account: a transfer, so totals are conserved (nothing is minted). Idempotent: does nothing
 * when the taker account already holds anything (a restarted flow keeps its split).
 * Returns whether a transfer happened.
 */
export function fundTakerAccount(venue: SimVenue, flowWallet: Address, taker: Address): boolean {
  if (venue.balances(taker).usdc.balance > 0n || venue.positions(taker).length > 0) return false;
  const usdc = venue.balances(flowWallet).usdc.available / 2n;
  if (usdc > 0n) {
    venue.debit(flowWallet, USDC, usdc);
    venue.credit(taker, USDC, usdc);
  }
  for (const p of venue.positions(flowWallet)) {
    const half = p.available / 2n;
    if (half === 0n) continue;
    venue.debit(flowWallet, p.tokenId, half);
    venue.credit(taker, p.tokenId, half);
  }
  return true;
}
