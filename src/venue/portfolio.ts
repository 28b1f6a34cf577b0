import type { Address } from "../core/types.js";
import { FEE_ACCOUNT, USDC } from "./ledger.js";
import type { VenueState } from "./state.js";
import type { Position } from "./types.js";

/** Share holdings of a wallet, one per token it holds (zero balances omitted), first-held first. */
export function positionsOf(s: VenueState, wallet: Address): Position[] {
  const out: Position[] = [];
  for (const asset of s.ledger.assets(wallet)) {
    const ref = asset === USDC ? undefined : s.markets.token(asset);
    const b = s.ledger.get(wallet, asset);
    if (ref === undefined || b.balance === 0n) continue;
    out.push({
      tokenId: asset,
      marketId: ref.market.spec.marketId,
      conditionId: ref.market.spec.conditionId,
      outcome: ref.outcome.label,
      outcomeIndex: ref.outcomeIndex,
      ...b,
    });
  }
  return out;
}

/** What the fee account has collected: USDC, and shares per token. */
export function feeBalancesOf(s: VenueState): { usdc: bigint; shares: Record<string, bigint> } {
  const shares: Record<string, bigint> = {};
  for (const asset of s.ledger.assets(FEE_ACCOUNT)) {
    if (asset !== USDC) shares[asset] = s.ledger.get(FEE_ACCOUNT, asset).balance;
  }
  return { usdc: s.ledger.get(FEE_ACCOUNT, USDC).balance, shares };
}
