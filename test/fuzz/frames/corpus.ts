import type { GatewayKind } from "../../../src/gateway/types.js";

/*
 * One valid frame of every event type of the spec ("Events" tables), as /ws/market and /ws/user
 * push them: the seeds the frame fuzzers mutate. Ids are shared so that the frames of one
 * gateway are about the same token, condition and vault.
 */

export const TOKEN = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
export const COND = `0x${"5f".repeat(32)}`;
export const WALLET = `0x${"a1".repeat(20)}`;
export const VAULT = `0x${"b2".repeat(20)}`;
export const USDC = `0x${"c3".repeat(20)}`;
const TX = `0x${"d4".repeat(32)}`;
const ORDER_HASH = `0x${"e5".repeat(32)}`;
const TS = 1_767_225_600_000;

type Frame = Record<string, unknown>;

const token = { tokenId: TOKEN, conditionId: COND, outcomeIndex: 0 };
const ev = (type: string, channel: string, id: string | undefined, data: Frame): Frame =>
  id === undefined ? { type, sid: 7, channel, data } : { type, sid: 7, channel, id, data };

/** Valid /ws/market frames, one per event type. */
export const MARKET_FRAMES: readonly Frame[] = [
  ev("book_snapshot", "token_book", TOKEN, {
    ...token,
    bids: [
      { price: "0.48", size: "100" },
      { price: "0.47", size: "2.5" },
    ],
    asks: [{ price: "0.52", size: "80.000001" }],
    seq: 10,
    tsMs: TS,
  }),
  ev("book_update", "token_book", TOKEN, {
    ...token,
    bids: [{ price: "0.49", size: "10" }],
    asks: [{ price: "0.51", size: "7" }],
    seq: 11,
    prevSeq: 10,
    tsMs: TS,
  }),
  ev("book_delta", "token_book", TOKEN, {
    ...token,
    changes: [
      { side: "buy", price: "0.49", size: "0" },
      { side: "SELL", price: "0.53", size: "12.75" },
    ],
    seq: 12,
    prevSeq: 11,
    tsMs: TS,
  }),
  ev("book_snapshot_failed", "token_book", TOKEN, { tokenId: TOKEN, reason: "book_unavailable", tsMs: TS }),
  ev("trade_matched", "token_trade_matches", TOKEN, {
    ...token,
    tradeId: "m-81",
    price: "0.53",
    quantity: "10",
    side: "buy",
    source: "matcher",
    tsMs: TS,
  }),
  ev("trade_settled", "token_trade_settlements", TOKEN, {
    ...token,
    orderHash: ORDER_HASH,
    txHash: TX,
    blockNumber: 123_456,
    price: "0.53",
    quantity: "10",
    side: "sell",
    source: "chain",
    tsMs: TS,
  }),
  ev("ohlc_update", "token_ohlc", TOKEN, {
    ...token,
    interval: "1m",
    time: TS,
    open: "0.5",
    high: "0.55",
    low: "0.49",
    close: "0.53",
    volume: "1200.5",
    isClosed: false,
    tsMs: TS,
  }),
  ev("market_paused", "condition_lifecycle", COND, {
    conditionId: COND,
    txHash: TX,
    blockNumber: 9,
    tsMs: TS,
  }),
  ev("market_unpaused", "condition_lifecycle", COND, { conditionId: COND, tsMs: TS }),
  ev("market_resolved", "condition_lifecycle", COND, {
    conditionId: COND,
    resolution: "YES",
    payouts: { "0": "1", "1": "0" },
    tsMs: TS,
  }),
  ev("market_status", "condition_lifecycle", COND, {
    conditionId: COND,
    status: "PAUSED",
    reason: "maintenance",
    tsMs: TS,
  }),
  ev("platform_status", "system", "platform_status", {
    frozen: true,
    reason: "chain halt",
    since: "2026-01-01T00:00:00Z",
    etaUnfreeze: null,
    tsMs: TS,
  }),
];

/** Valid /ws/user frames, one per event type. */
export const USER_FRAMES: readonly Frame[] = [
  ev("user_fill", "user_fills", undefined, {
    walletAddress: WALLET,
    side: "buy",
    tradeId: "m-81",
    orderId: "ord-1",
    clientOrderId: "mm-s1-42",
    ...token,
    price: "0.53",
    quantity: "10",
    source: "matcher",
    tsMs: TS,
  }),
  ev("order_placed", "user_orders", undefined, {
    orderId: "ord-1",
    clientOrderId: "mm-s1-42",
    status: "OPEN",
    tsMs: TS,
  }),
  ev("order_cancelled", "user_orders", undefined, {
    orderId: "ord-1",
    clientOrderId: "mm-s1-42",
    status: "CANCELLED",
    reason: "user",
    tsMs: TS,
  }),
  ev("vault_position_balance_changed", "vault_positions", VAULT, {
    vaultAddress: VAULT,
    ...token,
    balanceAfter: "42.5",
    reason: "OUTF",
    txHash: TX,
    blockNumber: 77,
    tsMs: TS,
  }),
  ev("vault_position_split", "vault_positions", VAULT, {
    vaultAddress: VAULT,
    conditionId: COND,
    collateralToken: USDC,
    amount: "100",
    txHash: TX,
    blockNumber: 78,
    tsMs: TS,
  }),
  ev("vault_position_merged", "vault_positions", VAULT, {
    vaultAddress: VAULT,
    conditionId: COND,
    collateralToken: USDC,
    amount: "50",
    txHash: TX,
    blockNumber: 79,
    tsMs: TS,
  }),
  ev("vault_position_redeemed", "vault_positions", VAULT, {
    vaultAddress: VAULT,
    conditionId: COND,
    payouts: ["10", "0"],
    txHash: TX,
    blockNumber: 80,
    tsMs: TS,
  }),
];

/** The corpus of one gateway. */
export function framesOf(gateway: GatewayKind): readonly Frame[] {
  return gateway === "market" ? MARKET_FRAMES : USER_FRAMES;
}
