import { buyFillPayment, buyReservation, type FeeSchedule, fillFee } from "./amounts.js";
import { FEE_ACCOUNT, type Ledger, USDC } from "./ledger.js";
import type { VenueOrder } from "./order.js";
import type { TradeRecord } from "./types.js";

/** Everything one fill needs besides the two orders. */
export interface FillContext {
  readonly ledger: Ledger;
  readonly fees: FeeSchedule;
  readonly tradeId: string;
  readonly conditionId: string;
  readonly now: number;
}

/**
 * Settles one fill of `qty` at the maker's price, in place: both orders' filled quantities and
 * reservations, both wallets' balances and the fee account. Conservation: the buyer's USDC goes
 * to the seller, the seller's shares to the buyer, and each fee moves from its payer's proceeds to
 * the fee account, so totals per asset never change.
 *
 * The buyer spends from its reservation and releases whatever the new, smaller reservation no
 * longer needs (price improvement and rounding slack); the seller spends `qty` reserved shares.
 */
export function settleFill(ctx: FillContext, taker: VenueOrder, maker: VenueOrder, qty: bigint): TradeRecord {
  const price = maker.price;
  const buyer = taker.side === "buy" ? taker : maker;
  const seller = taker.side === "buy" ? maker : taker;
  const { ledger } = ctx;

  const notional = buyFillPayment(buyer.notionalAcc, price, qty);
  const buyerFee = fillFee(
    "buy",
    buyer === taker ? ctx.fees.takerBps : ctx.fees.makerBps,
    price,
    qty,
    notional,
  );
  const sellerFee = fillFee(
    "sell",
    seller === taker ? ctx.fees.takerBps : ctx.fees.makerBps,
    price,
    qty,
    notional,
  );

  // Buyer: pay from the reservation, shrink it to what the remainder can still cost.
  buyer.notionalAcc += price * qty;
  buyer.filledQty += qty;
  const buyerReserve = buyReservation(buyer.notionalAcc, buyer.price, buyer.quantity - buyer.filledQty);
  ledger.spendReserved(buyer.wallet, USDC, notional);
  ledger.release(buyer.wallet, USDC, buyer.reserved - notional - buyerReserve);
  buyer.reserved = buyerReserve;
  ledger.credit(buyer.wallet, buyer.tokenId, qty - buyerFee.amount);
  ledger.credit(FEE_ACCOUNT, buyer.tokenId, buyerFee.amount);

  // Seller: deliver reserved shares, receive the notional less its fee.
  seller.filledQty += qty;
  ledger.spendReserved(seller.wallet, seller.tokenId, qty);
  seller.reserved -= qty;
  ledger.credit(seller.wallet, USDC, notional - sellerFee.amount);
  ledger.credit(FEE_ACCOUNT, USDC, sellerFee.amount);

  for (const o of [taker, maker]) {
    o.tradeIds.push(ctx.tradeId);
    o.updatedAt = ctx.now;
    if (o.filledQty === o.quantity) o.status = "FILLED";
  }

  return {
    id: ctx.tradeId,
    marketId: maker.marketId,
    conditionId: ctx.conditionId,
    tokenId: maker.tokenId,
    outcome: maker.outcome,
    outcomeIndex: maker.outcomeIndex,
    price,
    quantity: qty,
    notional,
    takerSide: taker.side,
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    makerWallet: maker.wallet,
    takerWallet: taker.wallet,
    makerFee: maker === buyer ? buyerFee : sellerFee,
    takerFee: taker === buyer ? buyerFee : sellerFee,
    createdAt: ctx.now,
  };
}
