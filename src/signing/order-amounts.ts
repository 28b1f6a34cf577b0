import type { Side } from "../core/types.js";
import { mulWeiCeil, mulWeiFloor } from "../core/wei.js";

/** makerAmount / takerAmount of an order, in 6-decimal wei. */
export interface OrderAmounts {
  readonly makerAmount: bigint;
  readonly takerAmount: bigint;
}

/**
 * Amounts of the signed struct. A BUY gives USDC for shares: makerAmount is the notional rounded
 * UP (the exchange refuses a floor-rounded BUY with `order_signed_with_floor_notional`), takerAmount
 * the shares. A SELL gives shares for USDC: makerAmount is the shares, takerAmount the proceeds
 * rounded DOWN (not shown in the spec; see README "Assumptions").
 * @example orderAmounts("buy", 333_333n, 1_500_000n) // { makerAmount: 500_000n (499_999.5 up), takerAmount: 1_500_000n }
 */
export function orderAmounts(side: Side, priceWei: bigint, qtyWei: bigint): OrderAmounts {
  return side === "buy"
    ? { makerAmount: mulWeiCeil(priceWei, qtyWei), takerAmount: qtyWei }
    : { makerAmount: qtyWei, takerAmount: mulWeiFloor(priceWei, qtyWei) };
}
