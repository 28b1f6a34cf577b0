import type { Address } from "../../core/types.js";
// The spec's channel table and caps, transcribed once (src/gateway/types.ts) for client and mock alike.
import {
  type Channel,
  type GatewayKind as Gateway,
  MARKET_CHANNELS,
  MAX_IDS_PER_SUBSCRIPTION as MAX_IDS,
  MAX_SUBSCRIPTIONS_PER_CONNECTION as MAX_SUBSCRIPTIONS,
  USER_CHANNELS,
} from "../../gateway/types.js";
import type { Scope } from "../scenario/types.js";

export { type Channel, type Gateway, MARKET_CHANNELS, MAX_IDS, MAX_SUBSCRIPTIONS, USER_CHANNELS };

/** The spec's subscription rejection codes (Subscription rejections). */
export const REJECT_CODES = [
  "invalid_params",
  "api_key_scope_missing",
  "forbidden",
  "subscription_cap_exceeded",
  "subscription_too_many_ids",
] as const;

/** One of REJECT_CODES. */
export type RejectCode = (typeof REJECT_CODES)[number];

export interface Rejection {
  readonly code: RejectCode;
  readonly message: string;
}

/** What a channel check needs to know about the connection asking. */
export interface Caller {
  readonly gateway: Gateway;
  readonly scopes: ReadonlySet<Scope>;
  /** The acting wallet's vault (lowercase); the only vault_positions id granted. */
  readonly vault: Address;
}

type IdKind = "token" | "condition" | "system" | "vault" | "wallet";

const KIND: Readonly<Record<Channel, IdKind>> = {
  token_book: "token",
  token_trade_matches: "token",
  token_trade_settlements: "token",
  token_ohlc: "token",
  condition_lifecycle: "condition",
  system: "system",
  user_orders: "wallet",
  user_fills: "wallet",
  vault_positions: "vault",
};

const TOKEN_ID = /^[0-9]{1,78}$/;
const CONDITION_ID = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const reject = (code: RejectCode, message: string): Rejection => ({ code, message });

/** True for user_orders and user_fills: no ids, scoped to the connection's wallet. */
export function isWalletScoped(channel: Channel): boolean {
  return KIND[channel] === "wallet";
}

/**
 * The channel-level rules of the spec's "Subscription rejections": unknown channel
 * (invalid_params), a private channel on /ws/market or a public one on /ws/user (forbidden), a
 * private channel without portfolio:read (api_key_scope_missing).
 */
export function checkChannel(channel: unknown, caller: Caller): { channel: Channel } | Rejection {
  if (typeof channel !== "string" || !Object.hasOwn(KIND, channel)) {
    return reject("invalid_params", `unknown channel ${JSON.stringify(channel)}`);
  }
  const c = channel as Channel;
  const isPrivate = (USER_CHANNELS as readonly string[]).includes(c);
  if (isPrivate && caller.gateway === "market") {
    return reject("forbidden", `${c} is a private channel: subscribe on /ws/user`);
  }
  if (!isPrivate && caller.gateway === "user") {
    return reject("forbidden", `${c} is a public channel: subscribe on /ws/market`);
  }
  if (isPrivate && !caller.scopes.has("portfolio:read")) {
    return reject("api_key_scope_missing", `${c} requires scope portfolio:read`);
  }
  return { channel: c };
}

/**
 * The id rules of one subscription (or one add_ids call) on `channel`: missing ids, ids on a
 * wallet-scoped channel, malformed ids, system ids other than platform_status (invalid_params),
 * more than 100 ids (subscription_too_many_ids), vault ids outside the wallet's vault (forbidden).
 * Returns the ids normalised (deduplicated, vaults lowercased); wallet-scoped channels give [].
 */
export function checkIds(channel: Channel, ids: unknown, caller: Caller): { ids: string[] } | Rejection {
  const kind = KIND[channel];
  if (kind === "wallet") {
    if (ids === undefined || ids === null || (Array.isArray(ids) && ids.length === 0)) return { ids: [] };
    return reject("invalid_params", `${channel} is scoped to the wallet and takes no ids`);
  }
  if (!Array.isArray(ids) || ids.length === 0) {
    return reject("invalid_params", `${channel} needs a non-empty ids array`);
  }
  if (ids.length > MAX_IDS) {
    return reject("subscription_too_many_ids", `at most ${MAX_IDS} ids per subscription (got ${ids.length})`);
  }
  const out = new Set<string>();
  for (const id of ids) {
    const bad = typeof id === "string" ? malformed(kind, id) : "ids must be strings";
    if (bad !== undefined) return reject("invalid_params", bad);
    const norm = kind === "vault" ? (id as string).toLowerCase() : (id as string);
    if (kind === "vault" && norm !== caller.vault) {
      return reject("forbidden", `vault ${norm} is not covered by this key's vault grant`);
    }
    out.add(norm);
  }
  return { ids: [...out] };
}

function malformed(kind: IdKind, id: string): string | undefined {
  switch (kind) {
    case "token":
      return TOKEN_ID.test(id) ? undefined : `tokenId ${JSON.stringify(id)} is not a decimal string`;
    case "condition":
      return CONDITION_ID.test(id)
        ? undefined
        : `conditionId ${JSON.stringify(id)} is not lowercase bytes32 hex`;
    case "system":
      return id === "platform_status" ? undefined : `system ids must be exactly ["platform_status"]`;
    case "vault":
      return ADDRESS.test(id) ? undefined : `vault ${JSON.stringify(id)} is not 0x + 40 hex`;
    default:
      return "this channel takes no ids";
  }
}
