import type { Address, OrderType, Side, TimeInForce } from "../core/types.js";
import type { OrderView, VenueOrderStatus } from "./types.js";

/**
 * The venue's mutable order record. Only the venue's own modules mutate it; everything handed to
 * callers and listeners is a `viewOf` copy.
 */
export interface VenueOrder {
  readonly id: string;
  readonly wallet: Address;
  readonly vault: Address;
  readonly marketId: string;
  readonly tokenId: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly side: Side;
  readonly price: bigint;
  /** Changes only by an amend (amend.ts), which keeps quantity − filledQty equal to the book entry. */
  quantity: bigint;
  readonly expiry: number;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly clientOrderId: string | undefined;
  readonly createdAt: number;
  filledQty: bigint;
  status: VenueOrderStatus;
  updatedAt: number;
  /** USDC (buy) or shares (sell) held reserved for this order in the ledger. */
  reserved: bigint;
  /** Exact Σ price·qty of a buy's fills, in micro² units (see amounts.ts). */
  notionalAcc: bigint;
  readonly tradeIds: string[];
}

/** Unfilled quantity. */
export function remainingOf(o: VenueOrder): bigint {
  return o.quantity - o.filledQty;
}

/** Ledger asset an order reserves: USDC for a buy, its outcome token for a sell. */
export function reservedAsset(o: VenueOrder): string {
  return o.side === "buy" ? "usdc" : o.tokenId;
}

/** A detached, read-only copy for callers. */
export function viewOf(o: VenueOrder): OrderView {
  const v: { -readonly [K in keyof OrderView]: OrderView[K] } = {
    id: o.id,
    userWallet: o.wallet,
    vault: o.vault,
    marketId: o.marketId,
    tokenId: o.tokenId,
    outcome: o.outcome,
    outcomeIndex: o.outcomeIndex,
    side: o.side,
    price: o.price,
    quantity: o.quantity,
    filledQty: o.filledQty,
    remainingQty: o.quantity - o.filledQty,
    expiry: o.expiry,
    type: o.type,
    timeInForce: o.timeInForce,
    status: o.status,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    reserved: o.reserved,
    tradeIds: [...o.tradeIds],
  };
  // Added in place, not spread into a copy: a spread that adds a field builds a slow object (µs).
  if (o.clientOrderId !== undefined) v.clientOrderId = o.clientOrderId;
  return v;
}
