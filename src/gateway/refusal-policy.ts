/**
 * Subscription rejection codes of the spec (Subscription rejections) that describe the request or
 * the key itself: a malformed id or channel, a key without the scope, a channel or vault outside
 * the key's grant, more ids than the server allows in one subscription. Sending the same request
 * again gets the same answer, so these are final.
 * Every other code is retried with back-off: `subscription_cap_exceeded` counts the connection's
 * subscriptions, which the client's layout keeps within the cap (a server counting more is in a
 * state that can pass, e.g. an unsubscribe still in flight); codes the spec does not list; and the
 * client's own `bad_reply` (an unreadable subscribe reply) and `not_accepted` (ids the server left
 * out of `accepted` without a code).
 */
export const FINAL_REFUSAL_CODES: ReadonlySet<string> = new Set([
  "invalid_params",
  "api_key_scope_missing",
  "forbidden",
  "subscription_too_many_ids",
]);

/**
 * True when a subscription refused with `code` must not be retried.
 * @example isFinalRefusal("forbidden") // true
 * @example isFinalRefusal("internal_error") // false: retried with back-off
 */
export function isFinalRefusal(code: string): boolean {
  return FINAL_REFUSAL_CODES.has(code);
}

/**
 * Final codes whose verdict on a token_book id can still change while the daemon runs, so the
 * refused book is asked for again after a slow back-off (refused-books.ts) rather than given up
 * until a restart. Only `invalid_params`: mm checks ids before sending (ids.ts), so the server
 * refusing a well-formed decimal token id says it does not know that token now (a market its book
 * service has not listed yet, a lag behind the market registry), which a later subscribe may find
 * changed. The other final codes cannot change for the running process: `forbidden` and
 * `api_key_scope_missing` are about the channel's gateway and the key's fixed scopes (a public
 * channel on /ws/market needs none), and `subscription_too_many_ids` about the request's size,
 * which the same request would repeat. A malformed id refused locally is never sent again.
 */
export const RECHECKED_REFUSAL_CODES: ReadonlySet<string> = new Set(["invalid_params"]);

/**
 * True when a token_book id refused for good with `code` is asked for again later (slowly).
 * @example isRecheckedRefusal("invalid_params") // true
 * @example isRecheckedRefusal("forbidden") // false: cannot change while the key is the same
 */
export function isRecheckedRefusal(code: string): boolean {
  return RECHECKED_REFUSAL_CODES.has(code);
}

/**
 * Refusal codes of a get_book_snapshot or an update_subscription that can mean the server no
 * longer holds the subscription (the spec has no drop notice): only `invalid_params`, the spec's
 * code for a request naming what the server does not know (the mock answers it "not subscribed",
 * "unknown sid"). A refusal for load or failure (`rate_limited`, `internal_error`,
 * `exchange_unavailable`…) or about the key says nothing of what the server holds: checking the
 * subscriptions (list_subscriptions) on it would only add a command while the server is busy.
 */
export const DROP_SIGN_CODES: ReadonlySet<string> = new Set(["invalid_params"]);

/**
 * True when a command refused with `code` may mean the server dropped our subscription.
 * @example mayMeanDropped("invalid_params") // true
 * @example mayMeanDropped("rate_limited") // false: the server is busy, not forgetful
 */
export function mayMeanDropped(code: string): boolean {
  return DROP_SIGN_CODES.has(code);
}

/**
 * Refusal codes kept as themselves in counter keys (and so metric labels): the spec's, the
 * client's own, and the usual transient ones. Any other code a server sends is counted as
 * `other` (its text stays in the rejection and the log), so a misbehaving server cannot grow
 * mm_ws_subscription_refusals_total's series without bound.
 */
const LABELLED_CODES: ReadonlySet<string> = new Set([
  ...FINAL_REFUSAL_CODES,
  "subscription_cap_exceeded",
  "bad_reply",
  "not_accepted",
  "rejected",
  "internal_error",
  "rate_limited",
  "exchange_unavailable",
]);

/**
 * The counter label of a refusal code: itself when known, else `other`.
 * @example refusalLabel("forbidden") // "forbidden"
 * @example refusalLabel("x".repeat(40)) // "other"
 */
export function refusalLabel(code: string): string {
  return LABELLED_CODES.has(code) ? code : "other";
}
