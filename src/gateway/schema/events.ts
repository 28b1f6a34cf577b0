import type { BookEvent } from "../../book/events.js";
import { parseBookFrame } from "../../book/frame.js";
import type { Channel, GatewayKind, Sid } from "../types.js";
import { gatewayOf } from "../types.js";
import { isRecord } from "./fields.js";
import {
  type LifecycleEvent,
  type OhlcUpdateEvent,
  type Parsed,
  type PlatformStatusEvent,
  parseLifecycle,
  parseOhlcUpdate,
  parsePlatformStatus,
  parseTradeMatched,
  parseTradeSettled,
  type TradeMatchedEvent,
  type TradeSettledEvent,
} from "./market-events.js";
import {
  parseUserFill,
  parseUserOrder,
  parseVaultPosition,
  type UserFillEvent,
  type UserOrderEvent,
  type VaultPositionEvent,
} from "./user-events.js";

/** Every event of /ws/market. */
export type MarketEvent =
  | BookEvent
  | TradeMatchedEvent
  | TradeSettledEvent
  | OhlcUpdateEvent
  | LifecycleEvent
  | PlatformStatusEvent;

/** Every event of /ws/user. */
export type UserEvent = UserFillEvent | UserOrderEvent | VaultPositionEvent;

/** Every event of the spec, discriminated by `type`. */
export type ChannelEvent = MarketEvent | UserEvent;

/** The channel each event type arrives on (spec: Events). */
export const EVENT_CHANNEL: Readonly<Record<ChannelEvent["type"], Channel>> = {
  book_snapshot: "token_book",
  book_update: "token_book",
  book_delta: "token_book",
  book_snapshot_failed: "token_book",
  trade_matched: "token_trade_matches",
  trade_settled: "token_trade_settlements",
  ohlc_update: "token_ohlc",
  market_paused: "condition_lifecycle",
  market_unpaused: "condition_lifecycle",
  market_resolved: "condition_lifecycle",
  market_status: "condition_lifecycle",
  platform_status: "system",
  user_fill: "user_fills",
  order_placed: "user_orders",
  order_cancelled: "user_orders",
  vault_position_balance_changed: "vault_positions",
  vault_position_split: "vault_positions",
  vault_position_merged: "vault_positions",
  vault_position_redeemed: "vault_positions",
};

/**
 * Why an event frame was dropped; one counter per reason. `book_*` are parseBookFrame's codes.
 * `wrong_gateway`: a channel of the other gateway; `id_mismatch`: the envelope id is not the
 * payload's token/condition/vault.
 */
export type EventRejection =
  | "unknown_type"
  | "bad_envelope"
  | "wrong_channel"
  | "wrong_gateway"
  | "bad_data"
  | "bad_field"
  | "id_mismatch"
  | `book_${string}`;

/** An event frame that passed validation, with its envelope. */
export interface ParsedEvent {
  readonly event: ChannelEvent;
  readonly sid: Sid;
  readonly channel: Channel;
  /** Envelope id (token, condition, vault, "platform_status"); undefined on wallet-scoped channels. */
  readonly id: string | undefined;
}

/**
 * A refused event frame: the reason (a counter label), for bad_field which field, and the channel
 * its type belongs to once the type is known and of this gateway: the frame was (most likely) an
 * event of that channel that could not be used, so a subscriber of the ids it names lost an event.
 * That holds for a bad envelope (sid or id of the wrong type) and a wrong `channel` label too: the
 * type says what the payload is, and dropping a book delta unnoticed leaves a book synced on stale
 * levels, while a needless resync costs one snapshot. Absent for unknown types and the other
 * gateway's types (nothing of this gateway is subscribed to them).
 */
export interface EventFrameRejection {
  readonly rejected: EventRejection;
  readonly type?: string | undefined;
  readonly field?: string | undefined;
  readonly channel?: Channel | undefined;
}

/**
 * Validates one event push `{type, sid, channel, id?, data}` of `gateway`: the type is one of the
 * spec's, on its own channel and gateway, the envelope well-formed, the payload valid (book frames
 * through src/book's parseBookFrame, the rest through this folder's parsers) and the envelope id
 * equal to the payload's key. Returns a rejection, never throws.
 * @example
 * const r = parseEventFrame(JSON.parse(text), "market");
 * if ("rejected" in r) counters.malformed(r.rejected); else deliver(r.event);
 */
export function parseEventFrame(
  frame: Record<string, unknown>,
  gateway: GatewayKind,
): ParsedEvent | EventFrameRejection {
  const type = frame.type;
  if (typeof type !== "string" || !Object.hasOwn(EVENT_CHANNEL, type)) {
    return { rejected: "unknown_type", type: typeof type === "string" ? type : undefined };
  }
  const t = type as ChannelEvent["type"];
  const channel = EVENT_CHANNEL[t];
  const sid = frame.sid;
  const id = frame.id;
  // Of this gateway, the type's channel is the one whose subscriber lost an event (see above).
  const lost = gatewayOf(channel) === gateway ? channel : undefined;
  if ((typeof sid !== "number" && typeof sid !== "string") || (id !== undefined && typeof id !== "string")) {
    return { rejected: "bad_envelope", type, channel: lost };
  }
  if (frame.channel !== channel) return { rejected: "wrong_channel", type, channel: lost };
  if (gatewayOf(channel) !== gateway) return { rejected: "wrong_gateway", type };
  const data = frame.data;
  if (!isRecord(data)) return { rejected: "bad_data", type, channel };
  const parsed = parseData(t, frame, data);
  if ("rejected" in parsed) return { ...parsed, channel };
  if ("badField" in parsed) return { rejected: "bad_field", type, field: parsed.badField, channel };
  const key = eventKey(parsed);
  if (key !== undefined && id !== undefined && id !== key) return { rejected: "id_mismatch", type, channel };
  return { event: parsed, sid, channel, id };
}

function parseData(
  t: ChannelEvent["type"],
  frame: Record<string, unknown>,
  d: Record<string, unknown>,
): Parsed<ChannelEvent> | EventFrameRejection {
  switch (t) {
    case "book_snapshot":
    case "book_update":
    case "book_delta":
    case "book_snapshot_failed": {
      const b = parseBookFrame(frame);
      return "rejected" in b ? { rejected: `book_${b.rejected}`, type: t } : b;
    }
    case "trade_matched":
      return parseTradeMatched(d);
    case "trade_settled":
      return parseTradeSettled(d);
    case "ohlc_update":
      return parseOhlcUpdate(d);
    case "market_paused":
    case "market_unpaused":
    case "market_resolved":
    case "market_status":
      return parseLifecycle(t, d);
    case "platform_status":
      return parsePlatformStatus(d);
    case "user_fill":
      return parseUserFill(d);
    case "order_placed":
    case "order_cancelled":
      return parseUserOrder(t, d);
    default:
      return parseVaultPosition(t, d);
  }
}

/**
 * The id an event is about, as subscriptions name it: token, condition, vault or
 * "platform_status"; undefined on the wallet-scoped channels (user_orders, user_fills).
 */
export function eventKey(e: ChannelEvent): string | undefined {
  switch (e.type) {
    case "market_paused":
    case "market_unpaused":
    case "market_resolved":
    case "market_status":
      return e.conditionId;
    case "platform_status":
      return "platform_status";
    case "user_fill":
    case "order_placed":
    case "order_cancelled":
      return undefined;
    case "vault_position_balance_changed":
    case "vault_position_split":
    case "vault_position_merged":
    case "vault_position_redeemed":
      return e.vaultAddress;
    default:
      return e.tokenId;
  }
}
