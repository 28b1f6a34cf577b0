import type {
  MarketStatus,
  OrderStatus,
  OrderType,
  Side,
  TimeInForce,
  WithdrawalStatus,
} from "../core/types.js";

/**
 * Response records of the Integrator Trading API, as the spec's Resources section describes them.
 *
 * Decimals (prices, quantities, amounts, fees) stay strings at this boundary, exactly as sent; callers
 * convert with core `parseDecimal` (or `toWei`) where they compute. The client checks the fields marked
 * "checked" at the boundary; the rest are passed through as sent (typed per the spec, not verified),
 * so an additive API change never breaks a read. Records the spec does not show are in
 * assumptions.ts, each with its assumed shape.
 */

export type DecimalString = string;
/** ISO-8601 UTC timestamp string. */
export type IsoTime = string;

/** A market. Checked: id, symbol, slug, status, conditionId, yesTokenId, noTokenId, outcomeLabels, feeTakerBps, negRiskEligible. */
export interface Market {
  id: string;
  eventId: string;
  symbol: string;
  slug: string;
  title: string;
  groupItemTitle: string | null;
  conditionId: string | null;
  questionId: string | null;
  yesTokenId: string | null;
  noTokenId: string | null;
  /** Unknown future statuses survive as strings; mm only quotes OPEN. */
  status: MarketStatus | (string & {});
  currentReviewRound: number;
  outcomeCount: number;
  outcomeLabels: string[];
  initialFairValue: DecimalString;
  initialOutcomePrices: DecimalString[];
  feeTakerBps: number | null;
  opensAt: IsoTime | null;
  closesAt: IsoTime | null;
  kickoff: IsoTime | null;
  resolutionWindowHours: number | null;
  pausedAt: IsoTime | null;
  resolvedAt: IsoTime | null;
  payoutNumerators: unknown;
  officialDataSource: string | null;
  sourceMatchId: string | null;
  resolutionCriteria: string | null;
  negRiskEligible: boolean;
  isNewMarketType: boolean;
  createdAt: IsoTime;
  updatedAt: IsoTime;
  outcomePrices: DecimalString[];
}

/** An event (inside matches, and from /api/events). Checked: id, slug, markets[]. */
export interface ExchangeEvent {
  id: string;
  slug: string;
  title: string;
  group: string;
  teamA: string;
  teamB: string;
  tags: unknown[];
  eventStartTime: IsoTime;
  createdAt: IsoTime;
  updatedAt: IsoTime;
  markets: Market[];
}

/** A match. Checked: id, slug, events[]. */
export interface Match {
  id: string;
  slug: string;
  title: string;
  participantA: string;
  participantB: string;
  tags: unknown[];
  startTime: IsoTime;
  state: string;
  createdAt: IsoTime;
  updatedAt: IsoTime;
  events: ExchangeEvent[];
}

/** A tag. Checked: slug. */
export interface Tag {
  slug: string;
  name: string;
  color: string;
  iconUrl: string;
}

/** An order (GET /api/orders/{id}, open, history). Every field but createdAt/updatedAt/type/timeInForce is checked. */
export interface Order {
  id: string;
  userWallet: string;
  vault: string;
  marketId: string;
  side: Side;
  outcome: string;
  price: DecimalString;
  quantity: DecimalString;
  filledQty: DecimalString;
  remainingQty: DecimalString;
  /** Unix seconds; 0 = no on-chain expiry. */
  expiry: number;
  type: OrderType;
  timeInForce: TimeInForce;
  status: OrderStatus;
  /** Present when the placement supplied one. */
  clientOrderId?: string;
  createdAt: IsoTime;
  updatedAt: IsoTime;
}

/** Accepted placement statuses; REJECTED never reaches callers as a record (see PlaceOrderOutcome). */
export type AcceptedPlacementStatus = "OPEN" | "FILLED" | "PARTIAL";

/** Body of POST /api/orders/place. Checked: all fields. */
export interface PlacementResult {
  orderId: string;
  status: AcceptedPlacementStatus | "REJECTED";
  filledQty: DecimalString;
  remainingQty: DecimalString;
  /** Element shape not shown in the spec; passed through. */
  trades: unknown[];
  code?: string;
  message?: string;
}

/** GET /api/orders/history page. */
export interface OrderHistoryPage {
  walletAddress: string;
  orders: Order[];
  /** Opaque keyset cursor; null on the last page. Pass it back unchanged. */
  nextCursor: string | null;
}

export interface OrderHistoryQuery {
  marketId?: string;
  status?: OrderStatus;
  /** ISO-8601 date-time. */
  from?: string;
  to?: string;
  /** 1..200; the server clamps larger values. */
  limit?: number;
  cursor?: string;
}

/** POST /api/orders/cancel-all. Checked: all fields. */
export interface CancelAllResult {
  cancelled: number;
  marketId?: string;
}

/** A withdrawal. Checked: id, userWallet, amount, destination, status. */
export interface Withdrawal {
  id: string;
  userWallet: string;
  /** USDC in human units, not wei. */
  amount: DecimalString;
  destination: string;
  status: WithdrawalStatus | (string & {});
  createdAt: IsoTime;
  updatedAt: IsoTime;
  txHash?: string;
  reason?: string;
}

export interface WithdrawalListQuery {
  status?: WithdrawalStatus;
  from?: string;
  to?: string;
  /** 1..200, default 50. */
  limit?: number;
  cursor?: string;
}

/** GET /api/me/withdrawals. */
export interface WithdrawalListPage {
  walletAddress: string;
  withdrawals: Withdrawal[];
  /** Not in the spec's record list, but the query takes a cursor; null or absent on the last page. */
  nextCursor: string | null;
}

/** REST trade record (GET /api/me/trades). Checked: the fields the spec names. `id` is the tradeId. */
export interface TradeRecord {
  id: string;
  orderId: string;
  marketId: string;
  vaultAddress: string;
  /** Per-wallet fee, resolved after settlement: null (or absent on the wire) until then. */
  fee: DecimalString | null;
  side: Side;
  price: DecimalString;
  quantity: DecimalString;
  createdAt: IsoTime;
}

/** A fee row (GET /api/me/fees): one per (tradeId, role). Other fields are not shown in the spec. */
export interface FeeRow {
  tradeId: string;
  /** maker = resting order. A BUY-taker fee is in outcome shares, a SELL-taker fee in USDC. */
  role: "maker" | "taker";
  [field: string]: unknown;
}

/** Response of GET /health and GET /ready. */
export interface ProbeResult {
  ok: boolean;
  httpStatus: number;
  /** Parsed JSON body, or the text when not JSON. */
  body: unknown;
}
