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
