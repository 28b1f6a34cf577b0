import type { Address, MarketStatus, OrderStatus, OrderType, Side, TimeInForce } from "../core/types.js";

/**
 * Shared vocabulary of the simulated venue. Every price and quantity is a bigint of 6-decimal
 * micro-units (0.53 → 530000n), every timestamp milliseconds of the injected Clock; the wire
 * formatter (wire.ts) turns them into the spec's decimal strings and ISO timestamps.
 */

/** A wallet key in the venue's ledger: a lowercase 0x address, or the fee account. */
export type AccountId = string;

/** One outcome of a market: its label as the market lists it and its ERC-1155 token id. */
export interface OutcomeSpec {
  readonly label: string;
  /** uint256 decimal string. */
  readonly tokenId: string;
}

/** What a caller registers: one market (one question; neg-risk groups register one per question). */
export interface MarketSpec {
  readonly marketId: string;
  readonly conditionId: string;
  readonly outcomes: readonly OutcomeSpec[];
  /** Tick size in micro-units (0.01 → 10000n); prices must be multiples of it within [tick, 1 − tick]. */
  readonly tickSize: bigint;
  /** Smallest order quantity in micro-units; default 1 (the spec does not show a minimum). */
  readonly minSize?: bigint;
  /** The market's feeTakerBps; null inherits the venue default. */
  readonly feeTakerBps: number | null;
  /** Maker fee parameter for this market; absent inherits the venue's makerFeeBps. */
  readonly makerFeeBps?: number;
  readonly status: MarketStatus;
  readonly negRisk: boolean;
}

/** A registered market as the venue reports it (status is live). */
export interface MarketView extends Omit<MarketSpec, "minSize" | "makerFeeBps"> {
  readonly minSize: bigint;
  /** Resolved taker fee parameter (market value or venue default). */
  readonly effectiveTakerBps: number;
  /** Resolved maker fee parameter. */
  readonly effectiveMakerBps: number;
}

/** The asset a fee is paid in: always the asset its payer receives in that fill. */
export type FeeAsset = "shares" | "usdc";

/** A fee amount in micro-units of its asset. */
export interface FeeAmount {
  readonly asset: FeeAsset;
  readonly amount: bigint;
}

/** The venue's own order states (PARTIAL is a derived view: OPEN with filledQty > 0). */
export type VenueOrderStatus = Exclude<OrderStatus, "PARTIAL" | "PENDING" | "REJECTED" | "SETTLEMENT_FAILED">;

/** An order as the venue keeps it. Queries hand out copies; mutate nothing you receive. */
export interface OrderView {
  readonly id: string;
  readonly userWallet: Address;
  readonly vault: Address;
  readonly marketId: string;
  readonly tokenId: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly filledQty: bigint;
  /** quantity − filledQty: what is (or, once terminal, was) left unfilled. */
  readonly remainingQty: bigint;
  /** Unix seconds; 0 = none. */
  readonly expiry: number;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly status: VenueOrderStatus;
  readonly clientOrderId?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Funds this order holds reserved now: USDC micro-units for a buy, shares for a sell. */
  readonly reserved: bigint;
  /** Trade ids of this order's fills, in fill order. */
  readonly tradeIds: readonly string[];
}

/** One match between a resting (maker) order and an incoming (taker) order. */
export interface TradeRecord {
  readonly id: string;
  readonly marketId: string;
  readonly conditionId: string;
  readonly tokenId: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
  /** The maker's price: fills always happen at the resting order's price. */
  readonly price: bigint;
  readonly quantity: bigint;
  /** USDC micro-units the buyer paid and the seller received before fees. */
  readonly notional: bigint;
  readonly takerSide: Side;
  readonly makerOrderId: string;
  readonly takerOrderId: string;
  readonly makerWallet: Address;
  readonly takerWallet: Address;
  readonly makerFee: FeeAmount;
  readonly takerFee: FeeAmount;
  readonly createdAt: number;
}

/** A trade from one wallet's point of view: one row per (tradeId, role). Serves /api/me/trades and /api/me/fees. */
export interface WalletTradeRow {
  /** Keyset id of the row: `${tradeId}:${role}` (a self-trade yields two rows). */
  readonly rowId: string;
  readonly tradeId: string;
  readonly role: "maker" | "taker";
  readonly wallet: Address;
  readonly vault: Address;
  readonly orderId: string;
  readonly clientOrderId?: string;
  /** Side from this wallet's view. */
  readonly side: Side;
  readonly marketId: string;
  readonly conditionId: string;
  readonly tokenId: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly price: bigint;
  readonly quantity: bigint;
  readonly notional: bigint;
  /** This wallet's fee for this role. */
  readonly fee: FeeAmount;
  readonly createdAt: number;
}

/** Codes a placement can be rejected with (all from the spec's catalogue). */
export type PlaceRejectCode =
  | "invalid_amounts"
  | "invalid_tif"
  | "invalid_outcome"
  | "expired"
  | "market_not_open"
  | "insufficient_funds"
  | "matcher_error";

/** Codes a cancel can fail with. */
export type CancelRejectCode = "order_not_found" | "not_cancellable" | "forbidden";

/** A business reject: a stable code, a short message and structured details. */
export interface VenueReject<C extends string> {
  readonly code: C;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** What POST /api/orders/place returns, in venue units. */
export interface PlacementResult {
  /** Empty string on reject. */
  readonly orderId: string;
  readonly status: "OPEN" | "FILLED" | "PARTIAL" | "REJECTED";
  readonly filledQty: bigint;
  readonly remainingQty: bigint;
  /** Fills of this placement, in match order. */
  readonly trades: readonly TradeRecord[];
  readonly code?: PlaceRejectCode;
  readonly message?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  /** True when this is the stored result of an earlier placement with the same clientOrderId. */
  readonly duplicate?: boolean;
}

/** Input of `SimVenue.place`: the HTTP layer has already checked auth, signature and fee fields. */
export interface PlaceOrderInput {
  readonly wallet: Address;
  readonly marketId: string;
  /** Outcome label (case-insensitive) or its decimal index ("0", "1"). */
  readonly outcome: string;
  readonly side: Side;
  /** Limit price in micro-units; for a market order, the worst acceptable price. */
  readonly price: bigint;
  readonly quantity: bigint;
  /** Default `limit`. */
  readonly type?: OrderType;
  /** Default `gtc` for limit, `ioc` for market. */
  readonly timeInForce?: TimeInForce;
  /** Unix seconds; 0 or absent = none. */
  readonly expiry?: number;
  readonly clientOrderId?: string;
}

/** Outcome of a cancel. */
export type CancelResult =
  | { readonly ok: true; readonly order: OrderView }
  | ({ readonly ok: false } & VenueReject<CancelRejectCode>);

/** A USDC or share balance; available = balance − reserved. */
export interface Balance {
  readonly balance: bigint;
  readonly reserved: bigint;
  readonly available: bigint;
}

/** A wallet's holding of one outcome token. */
export interface Position extends Balance {
  readonly tokenId: string;
  readonly marketId: string;
  readonly conditionId: string;
  readonly outcome: string;
  readonly outcomeIndex: number;
}

/** Keyset position over (createdAt, id); the HTTP layer encodes it as an opaque cursor. */
export interface Keyset {
  readonly createdAt: number;
  readonly id: string;
}

/** One page of a keyset-paginated read, newest first. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Pass back as `after` for the next page; undefined on the last page. */
  readonly next: Keyset | undefined;
}
