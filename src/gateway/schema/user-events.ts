import { FieldReader } from "./fields.js";
import type { Parsed } from "./market-events.js";

/** user_fills: a match-time notice of one of the wallet's fills (no fee, no txHash). */
export interface UserFillEvent {
  readonly type: "user_fill";
  readonly walletAddress: string;
  /** From the wallet's view. */
  readonly side: "buy" | "sell";
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId?: string | undefined;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly price: string;
  readonly quantity: string;
  readonly source: string;
  readonly tsMs: number;
}

/**
 * user_orders: order_placed / order_cancelled. The spec shows only `clientOrderId`; the fields
 * below are read when present (the mock sends the order as it stands) and `data` keeps the rest.
 */
export interface UserOrderEvent {
  readonly type: "order_placed" | "order_cancelled";
  readonly orderId?: string | undefined;
  readonly clientOrderId?: string | undefined;
  readonly status?: string | undefined;
  readonly reason?: string | undefined;
  readonly tsMs?: number | undefined;
  readonly data: Readonly<Record<string, unknown>>;
}

interface VaultChain {
  readonly vaultAddress: string;
  readonly conditionId: string;
  readonly txHash: string;
  readonly blockNumber: number;
  readonly tsMs: number;
}

/** vault_positions: a share balance changed; `reason` is a 4-character tag (open list). */
export interface VaultBalanceChangedEvent extends VaultChain {
  readonly type: "vault_position_balance_changed";
  readonly tokenId: string;
  readonly outcomeIndex: number;
  readonly balanceAfter: string;
  readonly reason: string;
}

/** vault_positions: collateral split into, or merged from, a full outcome set. */
export interface VaultSplitMergeEvent extends VaultChain {
  readonly type: "vault_position_split" | "vault_position_merged";
  readonly collateralToken: string;
  readonly amount: string;
}

/** vault_positions: a resolved position redeemed. */
export interface VaultRedeemedEvent extends VaultChain {
  readonly type: "vault_position_redeemed";
  readonly payouts: Readonly<Record<string, string>>;
}

export type VaultPositionEvent = VaultBalanceChangedEvent | VaultSplitMergeEvent | VaultRedeemedEvent;

function done<E>(r: FieldReader, e: E): Parsed<E> {
  return r.failed === undefined ? e : { badField: r.failed };
}

/** Validates user_fill data. */
export function parseUserFill(d: Record<string, unknown>): Parsed<UserFillEvent> {
  const r = new FieldReader(d);
  return done(r, {
    type: "user_fill",
    walletAddress: r.address("walletAddress"),
    side: r.oneOf("side", ["buy", "sell"] as const),
    tradeId: r.str("tradeId"),
    orderId: r.str("orderId"),
    clientOrderId: r.opt("clientOrderId", r.str),
    tokenId: r.tokenId(),
    conditionId: r.conditionId(),
    outcomeIndex: r.int("outcomeIndex"),
    price: r.decimal("price"),
    quantity: r.decimal("quantity"),
    source: r.str("source"),
    tsMs: r.num("tsMs"),
  });
}

/**
 * Validates order_placed / order_cancelled data: any object. Every field is optional and only
 * informational (the bot logs these events; its orders are reconciled over REST), so each known
 * field is kept when well-formed and left undefined otherwise, never refusing the event.
 */
export function parseUserOrder(
  type: UserOrderEvent["type"],
  d: Record<string, unknown>,
): Parsed<UserOrderEvent> {
  const r = new FieldReader(d);
  return done(r, {
    type,
    orderId: r.lenient("orderId", r.str),
    clientOrderId: r.lenient("clientOrderId", r.str),
    status: r.lenient("status", r.str),
    reason: r.lenient("reason", r.str),
    tsMs: r.lenient("tsMs", r.num),
    data: d,
  });
}

/** Validates the data of one of the four vault_positions events. */
export function parseVaultPosition(
  type: VaultPositionEvent["type"],
  d: Record<string, unknown>,
): Parsed<VaultPositionEvent> {
  const r = new FieldReader(d);
  const base = {
    vaultAddress: r.address("vaultAddress"),
    conditionId: r.conditionId(),
    txHash: r.hex("txHash"),
    blockNumber: r.int("blockNumber"),
    tsMs: r.num("tsMs"),
  };
  if (type === "vault_position_balance_changed") {
    return done(r, {
      type,
      ...base,
      tokenId: r.tokenId(),
      outcomeIndex: r.int("outcomeIndex"),
      balanceAfter: r.decimal("balanceAfter"),
      reason: r.str("reason"),
    });
  }
  if (type === "vault_position_redeemed") return done(r, { type, ...base, payouts: r.payouts("payouts") });
  return done(r, {
    type,
    ...base,
    collateralToken: r.address("collateralToken"),
    amount: r.decimal("amount"),
  });
}
