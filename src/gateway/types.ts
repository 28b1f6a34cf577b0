import type { SendOptions } from "./connection.js";

/** The two WebSocket gateways of the spec: /ws/market (public channels) and /ws/user (private). */
export type GatewayKind = "market" | "user";

/** Public channels of /ws/market (spec: Events). */
export const MARKET_CHANNELS = [
  "token_book",
  "token_trade_matches",
  "token_trade_settlements",
  "token_ohlc",
  "condition_lifecycle",
  "system",
] as const;

/** Private channels of /ws/user (scope portfolio:read). */
export const USER_CHANNELS = ["user_orders", "user_fills", "vault_positions"] as const;

export type MarketChannel = (typeof MARKET_CHANNELS)[number];
export type UserChannel = (typeof USER_CHANNELS)[number];
export type Channel = MarketChannel | UserChannel;

/** Spec, Limits: ids per subscription or per add_ids call. */
export const MAX_IDS_PER_SUBSCRIPTION = 100;
/** Spec, Limits: subscriptions per connection. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 256;
/** The only id the `system` channel takes. */
export const PLATFORM_STATUS_ID = "platform_status";

/** The gateway a channel lives on. */
export function gatewayOf(channel: Channel): GatewayKind {
  return (USER_CHANNELS as readonly string[]).includes(channel) ? "user" : "market";
}

/** True for a channel name of the spec. */
export function isChannel(v: unknown): v is Channel {
  return (
    typeof v === "string" &&
    ((MARKET_CHANNELS as readonly string[]).includes(v) || (USER_CHANNELS as readonly string[]).includes(v))
  );
}

/** user_orders and user_fills take no ids: they are scoped to the acting wallet. */
export function isWalletScoped(channel: Channel): boolean {
  return channel === "user_orders" || channel === "user_fills";
}

/** A subscription's server-side handle: connection-local, echoed as the server sent it. */
export type Sid = number | string;

/**
 * Sends a command on link `link` of a gateway (client.ts: that link's connection); what the
 * subscription code (subscriptions.ts, sync.ts, orphans.ts) needs to reach the server.
 */
export interface LinkSender {
  send(
    link: number,
    cmd: string,
    params: Record<string, unknown>,
    opts?: SendOptions,
  ): Promise<Record<string, unknown>>;
}
