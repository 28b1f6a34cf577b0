/**
 * Every error code the spec names, as data. Branch on these, never on messages. Codes the exchange
 * adds later still reach callers as plain strings (see {@link ExchangeCodeLike}).
 */

/** The spec's Errors → Codes catalogue, in the order it lists them. */
export const CATALOGUE_CODES = [
  "auth_required",
  "api_key_bad_format",
  "api_key_unknown_key",
  "api_key_bad_secret",
  "api_key_revoked",
  "api_key_expired",
  "api_key_suspended",
  "api_key_ip_denied",
  "api_key_no_associated_wallet",
  "api_key_user_wallet_required",
  "api_key_user_wallet_invalid",
  "api_key_scope_missing",
  "wallet_banned",
  "invalid_amounts",
  "invalid_tif",
  "bad_signature",
  "order_signed_with_floor_notional",
  "fee_too_high",
  "expired",
  "invalid_outcome",
  "maker_mismatch",
  "wallet_mismatch",
  "insufficient_funds",
  "market_not_open",
  "idempotency_race",
  "matcher_error",
  "exchange_unavailable",
  "exchange_transport_error",
  "exchange_malformed_response",
  "not_implemented",
  "order_not_found",
  "not_cancellable",
  "forbidden",
  "invalid_amount",
  "destination_not_cleared",
  "new_destination_edd",
  "aml_blocked",
  "invalid_state",
  "withdrawal_not_found",
  "match_not_found",
  "bad_request",
  "invalid_limit",
  "rate_limited",
] as const;

/**
 * Codes the spec names outside the catalogue table: the nested envelope's fallback for
 * non-structured upstream replies, and the 503 example code.
 */
export const OTHER_HTTP_CODES = ["exchange_upstream_error", "lock_invariant_violation"] as const;

/**
 * WebSocket handshake close reasons (close code 4401) that are not already catalogue codes.
 * The others (api_key_bad_format … api_key_user_wallet_invalid) are shared with HTTP.
 */
export const WS_CLOSE_ONLY_CODES = ["api_key_auth_disabled", "api_key_auth_unconfigured"] as const;

/** Every reason a 4401 close frame can carry, as the spec's WebSocket authentication table lists them. */
export const WS_4401_REASONS = [
  "api_key_bad_format",
  "api_key_unknown_key",
  "api_key_bad_secret",
  "api_key_revoked",
  "api_key_expired",
  "api_key_suspended",
  "api_key_ip_denied",
  "api_key_no_associated_wallet",
  "api_key_user_wallet_invalid",
  ...WS_CLOSE_ONLY_CODES,
] as const;

/** Subscription rejection codes of the WebSocket `subscribe` command not already in the catalogue. */
export const SUBSCRIPTION_REJECT_CODES = [
  "invalid_params",
  "subscription_cap_exceeded",
  "subscription_too_many_ids",
] as const;

/** Every code the spec names, deduplicated. */
export const EXCHANGE_CODES = [
  ...CATALOGUE_CODES,
  ...OTHER_HTTP_CODES,
  ...WS_CLOSE_ONLY_CODES,
  ...SUBSCRIPTION_REJECT_CODES,
] as const;

/** A code the spec documents. */
export type ExchangeCode = (typeof EXCHANGE_CODES)[number];

/**
 * Codes mm itself produces for failures that never reached, or never came back from, the exchange
 * in a readable form. Disjoint from {@link EXCHANGE_CODES}.
 */
export const CLIENT_CODES = [
  /** The TCP/TLS connection could not be established (refused, DNS, unreachable). */
  "connect_failed",
  /** The connection broke after the request was written, or mid-response. */
  "connection_lost",
  /** No complete response within the per-request timeout. */
  "request_timeout",
  /** A response arrived but its body is not JSON or does not fit the documented record. */
  "malformed_response",
  /** An error status whose body carries no code (for example an HTML page from a proxy). */
  "http_error",
  /** Placement came back REJECTED without a code. */
  "placement_rejected",
  /** The circuit breaker is open: the request was not sent. */
  "circuit_open",
  /** The client was closed (shutdown): the request, or its next retry, was not sent. */
  "client_closed",
] as const;

/** A code produced by mm's client rather than the exchange. */
export type ClientCode = (typeof CLIENT_CODES)[number];

/**
 * Any code an ExchangeError can carry. `(string & {})` keeps editor completion for known codes while
 * letting codes the exchange adds later through unchanged.
 */
export type ExchangeCodeLike = ExchangeCode | ClientCode | (string & {});

const EXCHANGE_CODE_SET: ReadonlySet<string> = new Set(EXCHANGE_CODES);
const CLIENT_CODE_SET: ReadonlySet<string> = new Set(CLIENT_CODES);

/**
 * True when `code` is one the spec documents.
 * @example isExchangeCode("bad_signature") // true
 */
export function isExchangeCode(code: string): code is ExchangeCode {
  return EXCHANGE_CODE_SET.has(code);
}

/** True when `code` is produced by mm's client (never sent by the exchange). */
export function isClientCode(code: string): code is ClientCode {
  return CLIENT_CODE_SET.has(code);
}
