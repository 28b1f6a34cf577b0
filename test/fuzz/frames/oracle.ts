import { expect } from "vitest";
import type { ParsedEvent } from "../../../src/gateway/schema/events.js";
import type { GatewayKind } from "../../../src/gateway/types.js";

/*
 * An independent reading of the spec's event tables (not the parser's code): which fields each
 * event must carry and of what kind, which channel and gateway it arrives on and which field the
 * envelope id names. `definitelyInvalid` answers a reason when a frame breaks a rule of the spec
 * for certain; the parser must then refuse it. It is deliberately one-sided: where the spec
 * leaves room (length limits, unsafe integers) it says nothing and the parser may decide.
 *
 * Optional fields come in two kinds. `optional`: ones the bot acts on (platform_status `frozen`,
 * user_fill `clientOrderId`), refused when present and malformed. `informational`: optional or
 * passthrough fields the bot only records (lifecycle txHash/blockNumber/payouts/reason, the
 * platform_status reason/since/tsMs, every user_orders field). These used to be refused like the
 * others, which cost a market_resolved its resolution for `payouts: [1, 0]` and a platform_status
 * its `frozen` for `reason: ""` (review of marketdata, question 1); now a malformed one is dropped
 * from the event (undefined) and the event is still delivered, so it never makes a frame invalid.
 */

type Kind =
  | "str"
  | "dec"
  | "int"
  | "num"
  | "bool"
  | "token"
  | "cond"
  | "addr"
  | "hex"
  | "payouts"
  | "numerators"
  | "side"
  | "time";
type Fields = Readonly<Record<string, Kind>>;

interface EventRule {
  readonly channel: string;
  readonly gateway: GatewayKind;
  readonly required: Fields;
  readonly optional?: Fields;
  /** Optional fields dropped (never refused) when malformed. */
  readonly informational?: Fields;
  /** The data field the envelope id must equal. */
  readonly key?: "tokenId" | "conditionId" | "vaultAddress" | "platform_status";
}

const TOKEN_FIELDS: Fields = { tokenId: "token", conditionId: "cond", outcomeIndex: "int", tsMs: "num" };
const CHAIN: Fields = { txHash: "hex", blockNumber: "int" };
const VAULT: Fields = {
  vaultAddress: "addr",
  conditionId: "cond",
  txHash: "hex",
  blockNumber: "int",
  tsMs: "num",
};
const TRADE: Fields = { ...TOKEN_FIELDS, price: "dec", quantity: "dec", side: "str", source: "str" };
const ORDER: Fields = { orderId: "str", clientOrderId: "str", status: "str", reason: "str", tsMs: "num" };

/** The spec's events (book events: envelope only, their entries are the tracker's). */
export const RULES: Readonly<Record<string, EventRule>> = {
  book_snapshot: { channel: "token_book", gateway: "market", required: {}, key: "tokenId" },
  book_update: { channel: "token_book", gateway: "market", required: {}, key: "tokenId" },
  book_delta: { channel: "token_book", gateway: "market", required: {}, key: "tokenId" },
  book_snapshot_failed: { channel: "token_book", gateway: "market", required: {}, key: "tokenId" },
  trade_matched: {
    channel: "token_trade_matches",
    gateway: "market",
    required: { ...TRADE, tradeId: "str" },
    key: "tokenId",
  },
  trade_settled: {
    channel: "token_trade_settlements",
    gateway: "market",
    required: { ...TRADE, ...CHAIN, orderHash: "hex" },
    key: "tokenId",
  },
  ohlc_update: {
    channel: "token_ohlc",
    gateway: "market",
    required: {
      ...TOKEN_FIELDS,
      interval: "str",
      time: "time",
      open: "dec",
      high: "dec",
      low: "dec",
      close: "dec",
      volume: "dec",
      isClosed: "bool",
    },
    key: "tokenId",
  },
  market_paused: {
    channel: "condition_lifecycle",
    gateway: "market",
    required: { conditionId: "cond", tsMs: "num" },
    informational: CHAIN,
    key: "conditionId",
  },
  market_unpaused: {
    channel: "condition_lifecycle",
    gateway: "market",
    required: { conditionId: "cond", tsMs: "num" },
    informational: CHAIN,
    key: "conditionId",
  },
  market_resolved: {
    channel: "condition_lifecycle",
    gateway: "market",
    required: { conditionId: "cond", resolution: "str", tsMs: "num" },
    // Payout numerators are integers and the market's vector is untyped: JSON numbers are fine.
    informational: { ...CHAIN, payouts: "numerators" },
    key: "conditionId",
  },
  market_status: {
    channel: "condition_lifecycle",
    gateway: "market",
    required: { conditionId: "cond", status: "str", tsMs: "num" },
    informational: { reason: "str" },
    key: "conditionId",
  },
  platform_status: {
    channel: "system",
    gateway: "market",
    required: {},
    optional: { frozen: "bool" },
    // `since` has no shape in the spec: a string or a ms number.
    informational: { reason: "str", since: "time", tsMs: "num" },
    key: "platform_status",
  },
  user_fill: {
    channel: "user_fills",
    gateway: "user",
    required: { ...TRADE, walletAddress: "addr", side: "side", tradeId: "str", orderId: "str" },
    optional: { clientOrderId: "str" },
  },
  order_placed: { channel: "user_orders", gateway: "user", required: {}, informational: ORDER },
  order_cancelled: { channel: "user_orders", gateway: "user", required: {}, informational: ORDER },
  vault_position_balance_changed: {
    channel: "vault_positions",
    gateway: "user",
    required: { ...VAULT, tokenId: "token", outcomeIndex: "int", balanceAfter: "dec", reason: "str" },
    key: "vaultAddress",
  },
  vault_position_split: {
    channel: "vault_positions",
    gateway: "user",
    required: { ...VAULT, collateralToken: "addr", amount: "dec" },
    key: "vaultAddress",
  },
  vault_position_merged: {
    channel: "vault_positions",
    gateway: "user",
    required: { ...VAULT, collateralToken: "addr", amount: "dec" },
    key: "vaultAddress",
  },
  vault_position_redeemed: {
    channel: "vault_positions",
    gateway: "user",
    required: { ...VAULT, payouts: "payouts" },
    key: "vaultAddress",
  },
};

const DEC = /^\d+(\.\d+)?$/;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function badKind(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case "str":
      return typeof v !== "string" || v === "";
    case "dec":
      return typeof v !== "string" || !DEC.test(v);
    case "int":
      return typeof v !== "number" || !Number.isInteger(v) || v < 0;
    case "num":
      return typeof v !== "number" || !Number.isFinite(v);
    case "bool":
      return typeof v !== "boolean";
    case "token":
      return typeof v !== "string" || !/^\d+$/.test(v);
    case "cond":
      return typeof v !== "string" || !/^0x[0-9a-f]{64}$/.test(v);
    case "addr":
      return typeof v !== "string" || !/^0x[0-9a-f]{40}$/.test(v);
    case "hex":
      return typeof v !== "string" || !/^0x[0-9a-f]*$/.test(v);
    case "side":
      return v !== "buy" && v !== "sell";
    case "time":
      return !(typeof v === "string" && v !== "") && !(typeof v === "number" && Number.isFinite(v));
    case "payouts":
    case "numerators": {
      if (typeof v !== "object" || v === null) return true;
      const entries = Object.entries(v);
      if (entries.length === 0) return true;
      const badAmount = (x: unknown) =>
        kind === "numerators" && typeof x === "number"
          ? !Number.isInteger(x) || x < 0
          : typeof x !== "string" || !DEC.test(x);
      return entries.some(([k, x]) => !/^\d+$/.test(k) || badAmount(x));
    }
  }
}

const present = (v: unknown) => v !== undefined && v !== null;

/** Why `frame` breaks the spec for certain, or undefined when it may be valid. */
export function definitelyInvalid(frame: Record<string, unknown>, gateway: GatewayKind): string | undefined {
  const type = frame.type;
  if (typeof type !== "string" || !Object.hasOwn(RULES, type)) return "unknown type";
  const rule = RULES[type] as EventRule;
  if (typeof frame.sid !== "number" && typeof frame.sid !== "string") return "sid";
  if (frame.id !== undefined && typeof frame.id !== "string") return "id type";
  if (frame.channel !== rule.channel) return "channel";
  if (rule.gateway !== gateway) return "gateway";
  const d = frame.data;
  if (!isObj(d)) return "data";
  if (type.startsWith("book_")) return bookInvalid(type, frame, d);
  for (const [field, kind] of Object.entries(rule.required)) {
    if (badKind(kind, d[field])) return `required ${field}`;
  }
  for (const [field, kind] of Object.entries(rule.optional ?? {})) {
    if (present(d[field]) && badKind(kind, d[field])) return `optional ${field}`;
  }
  if (rule.key !== undefined && frame.id !== undefined) {
    const key = rule.key === "platform_status" ? "platform_status" : d[rule.key];
    if (frame.id !== key) return "id mismatch";
  }
  return undefined;
}

function bookInvalid(
  type: string,
  frame: Record<string, unknown>,
  d: Record<string, unknown>,
): string | undefined {
  const tokenId = d.tokenId ?? frame.id;
  if (typeof tokenId !== "string" || !/^\d+$/.test(tokenId)) return "book token";
  if (frame.id !== undefined && frame.id !== tokenId) return "book id mismatch";
  if (d.tsMs !== undefined && (typeof d.tsMs !== "number" || !Number.isFinite(d.tsMs))) return "book tsMs";
  if (type === "book_snapshot_failed") return undefined;
  for (const f of ["seq", "prevSeq"]) {
    const v = d[f];
    if (present(v) && (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)) return `book ${f}`;
  }
  return undefined;
}

/**
 * Asserts that an accepted frame was read as what it says: same type, envelope and every field
 * of the event equal to the frame's (payouts sent as an array become the same map by position).
 */
export function expectFaithful(frame: Record<string, unknown>, parsed: ParsedEvent): void {
  const d = frame.data as Record<string, unknown>;
  const e = parsed.event as unknown as Record<string, unknown>;
  expect(e.type).toBe(frame.type);
  expect(parsed.sid).toBe(frame.sid);
  expect(parsed.channel).toBe(frame.channel);
  expect(parsed.id).toBe(frame.id);
  const rule = RULES[frame.type as string] as EventRule;
  if ((frame.type as string).startsWith("book_")) {
    expect(e.tokenId).toBe(d.tokenId ?? frame.id);
    for (const f of ["seq", "prevSeq", "tsMs"]) {
      if (f in e) expect(e[f]).toBe(d[f] ?? undefined);
    }
    // The entry lists pass through unread (the tracker reads them): the same JSON as sent.
    for (const f of ["bids", "asks", "changes"])
      if (f in e) expect(JSON.stringify(e[f])).toBe(JSON.stringify(d[f]));
    return;
  }
  for (const field of Object.keys(rule.required)) expect(e[field], field).toBeDefined();
  // A malformed informational field is dropped from the event, never passed on as sent.
  for (const [field, kind] of Object.entries(rule.informational ?? {})) {
    if (present(d[field]) && badKind(kind, d[field])) expect(e[field], field).toBeUndefined();
  }
  for (const [k, v] of Object.entries(e)) {
    if (k === "type" || k === "data" || v === undefined) continue;
    const sent = d[k];
    if (k === "payouts") {
      // By position for an array; integer numerators come out as decimal strings.
      const entries = Array.isArray(sent)
        ? sent.map((x, i) => [String(i), x])
        : Object.entries(sent as object);
      expect(v).toEqual(
        Object.fromEntries(entries.map(([i, x]) => [i, typeof x === "number" ? String(x) : x])),
      );
    } else {
      expect(v, k).toStrictEqual(sent);
    }
  }
}
