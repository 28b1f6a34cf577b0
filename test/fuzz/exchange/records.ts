import { ORDER_STATUSES } from "../../../src/core/types.js";
import {
  balances,
  cancelResult,
  fills,
  marketTrades,
  meFees,
  meTrades,
  openOrders,
  orderbook,
  platformStatus,
  positions,
  priceHistory,
  vault,
  withdrawalRequestResult,
} from "../../../src/exchange/assumptions.js";
import {
  normaliseCancelAll,
  normaliseEvent,
  normaliseFeeRow,
  normaliseHistoryPage,
  normaliseMarket,
  normaliseMatch,
  normaliseOrder,
  normalisePlacement,
  normaliseTag,
  normaliseTradeRecord,
  normaliseWithdrawal,
  normaliseWithdrawalList,
} from "../../../src/exchange/records.js";
import { sampleMarket, sampleOrder, sampleTrade, sampleWithdrawal } from "../../support/exchange-fixtures.js";

/*
 * Every response-body reader of the HTTP client with a valid body to start from and, for the
 * records, the rules its documentation promises (src/exchange/validate.ts, records.ts,
 * assumptions.ts): which fields are checked and of what kind. A body that breaks one of them must
 * be refused; everything else passes through.
 */

export type Rule =
  | "id"
  | "str"
  | "dec"
  | "decOrNull"
  | "optDec"
  | "int"
  | "natOrNull"
  | "nat"
  | "bool"
  | "optBool"
  | "strOrNull"
  | "optStr"
  | "strArray"
  | "optArray"
  | readonly string[];

export interface BodyTarget {
  readonly name: string;
  readonly parse: (body: unknown, path: string) => unknown;
  readonly seed: unknown;
  /** Field rules of a record body (absent for lists and wrappers). */
  readonly rules?: Readonly<Record<string, Rule>>;
  /** The reader returns the record's unchecked fields too (a shallow copy). */
  readonly passThrough?: boolean;
}

const placement = {
  orderId: "ord-1",
  status: "OPEN",
  filledQty: "0",
  remainingQty: "10",
  trades: [],
  code: null,
};

export const TARGETS: readonly BodyTarget[] = [
  {
    name: "market",
    passThrough: true,
    parse: normaliseMarket,
    seed: sampleMarket(),
    rules: {
      id: "id",
      symbol: "id",
      slug: "id",
      status: "str",
      conditionId: "strOrNull",
      yesTokenId: "strOrNull",
      noTokenId: "strOrNull",
      outcomeLabels: "strArray",
      feeTakerBps: "natOrNull",
      negRiskEligible: "bool",
    },
  },
  {
    name: "order",
    passThrough: true,
    parse: normaliseOrder,
    seed: sampleOrder(),
    rules: {
      id: "id",
      userWallet: "str",
      vault: "str",
      marketId: "id",
      side: ["buy", "sell"],
      outcome: "str",
      price: "dec",
      quantity: "dec",
      filledQty: "dec",
      remainingQty: "dec",
      expiry: "int",
      status: ORDER_STATUSES,
      clientOrderId: "optStr",
    },
  },
  {
    name: "placement",
    passThrough: true,
    parse: normalisePlacement,
    seed: placement,
    rules: {
      status: ["OPEN", "FILLED", "PARTIAL", "REJECTED"],
      orderId: "str",
      filledQty: "dec",
      remainingQty: "dec",
      trades: "optArray",
    },
  },
  {
    name: "withdrawal",
    passThrough: true,
    parse: normaliseWithdrawal,
    seed: sampleWithdrawal(),
    rules: { id: "id", userWallet: "str", amount: "dec", destination: "str", status: "str" },
  },
  {
    name: "trade",
    passThrough: true,
    parse: normaliseTradeRecord,
    seed: sampleTrade(),
    rules: {
      id: "id",
      orderId: "str",
      marketId: "str",
      vaultAddress: "str",
      fee: "decOrNull",
      side: ["buy", "sell"],
      price: "dec",
      quantity: "dec",
      createdAt: "str",
    },
  },
  {
    name: "fee row",
    passThrough: true,
    parse: normaliseFeeRow,
    seed: { tradeId: "t-1", role: "maker", fee: "0" },
    rules: { tradeId: "id", role: ["maker", "taker"] },
  },
  {
    name: "cancel-all",
    parse: normaliseCancelAll,
    seed: { cancelled: 3, marketId: "m-1" },
    rules: { cancelled: "nat", marketId: "optStr" },
  },
  {
    name: "balances",
    passThrough: true,
    parse: balances,
    seed: { available: "100.5", locked: "5", total: "105.5", currency: "USDC" },
    rules: { available: "dec", locked: "optDec", total: "optDec" },
  },
  {
    name: "vault",
    passThrough: true,
    parse: vault,
    seed: { vaultAddress: `0x${"22".repeat(20)}`, deployed: true },
    rules: { vaultAddress: "id" },
  },
  {
    name: "platform status",
    passThrough: true,
    parse: platformStatus,
    seed: { frozen: false, reason: null },
    rules: { frozen: "optBool" },
  },
  {
    name: "tag",
    passThrough: true,
    parse: normaliseTag,
    seed: { slug: "football", label: "Football" },
    rules: { slug: "id" },
  },
  { name: "cancel", parse: cancelResult, seed: { orderId: "ord-1", status: "CANCELLED" } },
  {
    name: "open orders",
    parse: openOrders,
    seed: { orders: [sampleOrder(), sampleOrder({ id: "ord-2", clientOrderId: "" })] },
  },
  { name: "open orders (bare)", parse: openOrders, seed: [sampleOrder()] },
  {
    name: "history page",
    parse: normaliseHistoryPage,
    seed: {
      walletAddress: `0x${"11".repeat(20)}`,
      orders: [sampleOrder({ status: "FILLED" })],
      nextCursor: "c2",
    },
  },
  {
    name: "withdrawal list",
    parse: normaliseWithdrawalList,
    seed: { walletAddress: `0x${"11".repeat(20)}`, withdrawals: [sampleWithdrawal()], nextCursor: null },
  },
  {
    name: "me trades",
    parse: meTrades,
    seed: { trades: [sampleTrade(), sampleTrade({ fee: null })], nextCursor: null },
  },
  { name: "me fees", parse: meFees, seed: [{ tradeId: "t-1", role: "taker", fee: "0.05" }] },
  { name: "fills", parse: fills, seed: { fills: [{ id: "f-1", price: "0.5", quantity: "2" }] } },
  {
    name: "positions",
    parse: positions,
    seed: { positions: [{ tokenId: "123", quantity: "10", marketId: "m-1" }] },
  },
  {
    name: "orderbook",
    parse: orderbook,
    seed: { bids: [{ price: "0.48", size: "10" }], asks: [{ price: "0.52", size: "3.5" }], symbol: "BRA" },
  },
  { name: "market trades", parse: marketTrades, seed: [{ price: "0.5", quantity: "1", side: "buy" }] },
  { name: "price history", parse: priceHistory, seed: { history: [{ time: 1_767_225_600, price: "0.5" }] } },
  {
    name: "event",
    parse: normaliseEvent,
    seed: { id: "ev-1", slug: "brazil-vs-france", markets: [sampleMarket()] },
  },
  {
    name: "match",
    parse: normaliseMatch,
    seed: { id: "mt-1", slug: "bra-fra", events: [{ id: "ev-1", slug: "e" }] },
  },
  {
    name: "withdrawal request",
    parse: withdrawalRequestResult,
    seed: { ...sampleWithdrawal(), code: "new_destination_edd", message: "review" },
  },
];

const DEC = /^-?\d+(\.\d+)?$/;
const absent = (v: unknown) => v === undefined || v === null;

/** True when `v` breaks `rule` for certain. */
export function breaks(rule: Rule, v: unknown): boolean {
  if (Array.isArray(rule)) return typeof v !== "string" || !rule.includes(v);
  switch (rule) {
    case "id":
      return typeof v !== "string" || v === "";
    case "str":
      return typeof v !== "string";
    case "dec":
      return typeof v !== "string" || !DEC.test(v);
    case "decOrNull":
    case "optDec":
      return !absent(v) && (typeof v !== "string" || !DEC.test(v));
    case "int":
      return typeof v !== "number" || !Number.isSafeInteger(v);
    case "nat":
      return typeof v !== "number" || !Number.isSafeInteger(v) || v < 0;
    case "natOrNull":
      return !absent(v) && (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0);
    case "bool":
      return typeof v !== "boolean";
    case "optBool":
      return v !== undefined && typeof v !== "boolean";
    case "strOrNull":
    case "optStr":
      return !absent(v) && typeof v !== "string";
    case "strArray":
      return !Array.isArray(v) || v.some((x) => typeof x !== "string");
    case "optArray":
      return v !== undefined && !Array.isArray(v);
    default:
      return false;
  }
}

/** Why a record body must be refused, or undefined. */
export function recordInvalid(t: BodyTarget, body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "not an object";
  const o = body as Record<string, unknown>;
  for (const [field, rule] of Object.entries(t.rules ?? {})) if (breaks(rule, o[field])) return field;
  if (t.name === "placement" && o.status !== "REJECTED" && o.orderId === "") return "orderId";
  return undefined;
}
