/** Order side from the wallet's point of view, as the API spells it. */
export type Side = "buy" | "sell";

/** EIP-712 numeric side: 0 = BUY, 1 = SELL. */
export const SIDE_TO_NUMBER: Readonly<Record<Side, 0 | 1>> = { buy: 0, sell: 1 };

/** Order type and time in force as the API spells them. */
export type OrderType = "limit" | "market";
export type TimeInForce = "gtc" | "ioc" | "fok";

/** Order states of the spec (PARTIAL exists only as a history filter and placement status). */
export const ORDER_STATUSES = [
  "PENDING",
  "OPEN",
  "PARTIAL",
  "FILLED",
  "CANCELLED",
  "REJECTED",
  "EXPIRED",
  "SETTLEMENT_FAILED",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Market states of the spec. */
export const MARKET_STATUSES = [
  "DRAFT",
  "PROPOSED",
  "PRE_MARKET",
  "OPEN",
  "PAUSED",
  "SUSPENDED",
  "CLOSED",
  "PENDING_RESOLUTION",
  "DELAYED",
  "DISPUTED",
  "RESOLVED",
  "VOIDED",
  "CANCELLED",
] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];

/**
 * Statuses whose payout is fixed, so the market's shares carry no price risk (the inventory caps
 * stop counting them). The spec does not define VOIDED; a void is taken to pay out fixed amounts as
 * a resolution does (README "Assumptions").
 */
export const SETTLED_MARKET_STATUSES: ReadonlySet<string> = new Set<MarketStatus>(["RESOLVED", "VOIDED"]);

/** Withdrawal states of the spec. */
export const WITHDRAWAL_STATUSES = [
  "PENDING",
  "MLRO_REVIEW",
  "CO_SIGNED",
  "SUBMITTED",
  "CONFIRMED",
  "REJECTED",
  "REVERTED",
  "CANCELLED",
  "FAILED",
] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** A 0x-prefixed 20-byte address. */
export type Address = `0x${string}`;
/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;

/**
 * Body of POST /api/orders/place as mm sends it. The signed EIP-712 struct is not sent as such:
 * the exchange rebuilds it from these fields (its `platform_canonical_struct`), so `nonce` carries
 * the struct's salt (an assumption, see README "Assumptions").
 */
export interface PlaceOrderRequest {
  marketId: string;
  side: Side;
  /** Outcome label as the market lists it (e.g. "YES"). */
  outcome: string;
  /** Decimal string, a multiple of the market's tick. */
  price: string;
  /** Decimal string, at most 6 decimals. */
  quantity: string;
  /** Decimal string of the EIP-712 salt. */
  nonce: string;
  /** Unix seconds; 0 = no on-chain expiry. */
  expiry: number;
  maker: Address;
  signature: Hex;
  clientOrderId?: string;
  type?: OrderType;
  timeInForce?: TimeInForce;
}
