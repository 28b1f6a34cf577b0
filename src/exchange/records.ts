import { ORDER_STATUSES } from "../core/types.js";
import type {
  CancelAllResult,
  ExchangeEvent,
  FeeRow,
  Market,
  Match,
  Order,
  OrderHistoryPage,
  PlacementResult,
  Tag,
  TradeRecord,
  Withdrawal,
  WithdrawalListPage,
} from "./types.js";
import {
  arr,
  bool,
  dec,
  decOrNull,
  fail,
  id,
  int,
  intOrNull,
  items,
  obj,
  oneOf,
  optStr,
  str,
  strArray,
  strOrNull,
} from "./validate.js";

/**
 * Boundary normalisers for the records the spec shows. Each checks the fields mm relies on and returns
 * a shallow copy (unchecked fields pass through). Errors are ValidationError `malformed_response`.
 */

const SIDES = ["buy", "sell"] as const;
const PLACEMENT_STATUSES = ["OPEN", "FILLED", "PARTIAL", "REJECTED"] as const;

/** @example normaliseMarket(body, "GET /api/markets/{slug}") */
export function normaliseMarket(value: unknown, path: string): Market {
  const o = obj(value, path);
  const feeTakerBps = intOrNull(o, "feeTakerBps", path);
  if (feeTakerBps !== null && feeTakerBps < 0)
    fail(`${path}.feeTakerBps`, "a non-negative integer", feeTakerBps);
  return {
    ...o,
    id: id(o, "id", path),
    symbol: id(o, "symbol", path),
    slug: id(o, "slug", path),
    status: str(o, "status", path),
    conditionId: strOrNull(o, "conditionId", path),
    yesTokenId: strOrNull(o, "yesTokenId", path),
    noTokenId: strOrNull(o, "noTokenId", path),
    outcomeLabels: strArray(o, "outcomeLabels", path),
    feeTakerBps,
    negRiskEligible: bool(o, "negRiskEligible", path),
  } as Market;
}

export function normaliseEvent(value: unknown, path: string): ExchangeEvent {
  const o = obj(value, path);
  const markets = o.markets === undefined ? [] : items(o.markets, `${path}.markets`, normaliseMarket);
  return { ...o, id: id(o, "id", path), slug: str(o, "slug", path), markets } as ExchangeEvent;
}

export function normaliseMatch(value: unknown, path: string): Match {
  const o = obj(value, path);
  const events = o.events === undefined ? [] : items(o.events, `${path}.events`, normaliseEvent);
  return { ...o, id: id(o, "id", path), slug: str(o, "slug", path), events } as Match;
}

export function normaliseTag(value: unknown, path: string): Tag {
  const o = obj(value, path);
  return { ...o, slug: id(o, "slug", path) } as Tag;
}

/** An Order record; the status must be one of the spec's order states (mm branches on it). */
export function normaliseOrder(value: unknown, path: string): Order {
  const o = obj(value, path);
  const { clientOrderId: _dropped, ...rest } = o;
  const clientOrderId = optStr(o, "clientOrderId", path);
  const order = {
    ...rest,
    id: id(o, "id", path),
    userWallet: str(o, "userWallet", path),
    vault: str(o, "vault", path),
    marketId: id(o, "marketId", path),
    side: oneOf(o, "side", SIDES, path),
    outcome: str(o, "outcome", path),
    price: dec(o, "price", path),
    quantity: dec(o, "quantity", path),
    filledQty: dec(o, "filledQty", path),
    remainingQty: dec(o, "remainingQty", path),
    expiry: int(o, "expiry", path),
    status: oneOf(o, "status", ORDER_STATUSES, path),
  } as Order;
  if (clientOrderId !== undefined && clientOrderId !== "") order.clientOrderId = clientOrderId;
  return order;
}

/** Body of POST /api/orders/place (any status; REJECTED is turned into an error by the envelope reader). */
export function normalisePlacement(value: unknown, path: string): PlacementResult {
  const o = obj(value, path);
  const status = oneOf(o, "status", PLACEMENT_STATUSES, path);
  const orderId = str(o, "orderId", path);
  if (status !== "REJECTED" && orderId === "") fail(`${path}.orderId`, "a non-empty string", orderId);
  return {
    ...o,
    orderId,
    status,
    filledQty: dec(o, "filledQty", path),
    remainingQty: dec(o, "remainingQty", path),
    trades: o.trades === undefined ? [] : arr(o.trades, `${path}.trades`),
  } as PlacementResult;
}

export function normaliseHistoryPage(value: unknown, path: string): OrderHistoryPage {
  const o = obj(value, path);
  return {
    walletAddress: str(o, "walletAddress", path),
    orders: items(o.orders, `${path}.orders`, normaliseOrder),
    nextCursor: strOrNull(o, "nextCursor", path),
  };
}

export function normaliseCancelAll(value: unknown, path: string): CancelAllResult {
  const o = obj(value, path);
  const cancelled = int(o, "cancelled", path);
  if (cancelled < 0) fail(`${path}.cancelled`, "a non-negative integer", cancelled);
  const marketId = optStr(o, "marketId", path);
  return marketId === undefined ? { cancelled } : { cancelled, marketId };
}

export function normaliseWithdrawal(value: unknown, path: string): Withdrawal {
  const o = obj(value, path);
  return {
    ...o,
    id: id(o, "id", path),
    userWallet: str(o, "userWallet", path),
    amount: dec(o, "amount", path),
    destination: str(o, "destination", path),
    status: str(o, "status", path),
  } as Withdrawal;
}

export function normaliseWithdrawalList(value: unknown, path: string): WithdrawalListPage {
  const o = obj(value, path);
  return {
    walletAddress: str(o, "walletAddress", path),
    withdrawals: items(o.withdrawals, `${path}.withdrawals`, normaliseWithdrawal),
    nextCursor: strOrNull(o, "nextCursor", path),
  };
}

export function normaliseTradeRecord(value: unknown, path: string): TradeRecord {
  const o = obj(value, path);
  return {
    ...o,
    id: id(o, "id", path),
    orderId: str(o, "orderId", path),
    marketId: str(o, "marketId", path),
    vaultAddress: str(o, "vaultAddress", path),
    // The spec: "Fee is the per-wallet amount, resolved after settlement" — null until then.
    fee: decOrNull(o, "fee", path),
    // Assumed our wallet's side, as the spec says of user_fill (README, Assumptions).
    side: oneOf(o, "side", SIDES, path),
    price: dec(o, "price", path),
    quantity: dec(o, "quantity", path),
    createdAt: str(o, "createdAt", path),
  } as TradeRecord;
}

export function normaliseFeeRow(value: unknown, path: string): FeeRow {
  const o = obj(value, path);
  return { ...o, tradeId: id(o, "tradeId", path), role: oneOf(o, "role", ["maker", "taker"] as const, path) };
}
