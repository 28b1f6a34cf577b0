import { ExchangeError } from "./exchange-error.js";

/**
 * The scope each authenticated endpoint mm calls needs (spec, Endpoints: "Authenticated HTTP
 * endpoints"), to name it when a refusal's body leaves `requiredScope` out. fees-summary has no
 * scope in the spec's table and is left out. The market reads are public, but markets:read is the
 * scope the spec's Scopes table gives them ("public market and orderbook reads"): an exchange that
 * refuses them to a key refuses them for that one.
 */
const ENDPOINT_SCOPES: ReadonlyMap<string, string> = new Map([
  ["GET /api/markets", "markets:read"],
  ["GET /api/markets/{slug}", "markets:read"],
  ["GET /api/markets/{symbol}/orderbook", "markets:read"],
  ["POST /api/orders/place", "orders:write"],
  ["POST /api/orders/cancel", "orders:write"],
  ["POST /api/orders/cancel-all", "orders:write"],
  ["GET /api/orders/open", "orders:read"],
  ["GET /api/orders/history", "orders:read"],
  ["GET /api/orders/{id}", "orders:read"],
  ["GET /api/orders/{id}/fills", "orders:read"],
  ["GET /api/me/vault", "portfolio:read"],
  ["GET /api/me/balances", "portfolio:read"],
  ["GET /api/me/positions", "portfolio:read"],
  ["GET /api/me/trades", "portfolio:read"],
  ["GET /api/me/fees", "portfolio:read"],
  ["GET /api/me/fee-tier", "portfolio:read"],
  ["GET /api/me/portfolio", "portfolio:read"],
]);

/**
 * The spec's public reads (Endpoints: "Public HTTP endpoints (no key needed; a key is accepted and
 * raises the rate ceiling)"), as the `METHOD /route` an ExchangeError names.
 */
const PUBLIC_READ =
  /^GET \/(api\/(markets|events|matches|tags|platform|compliance|search|leaderboard)(\/.*)?|health|ready)$/;

/** A scope name as the spec writes them (`orders:write`): anything else from a body is not echoed. */
const SCOPE_NAME = /^[a-z]{1,32}:[a-z]{1,32}$/;

/**
 * Whether `err` is the exchange saying the API key lacks a scope the request needs: 403
 * `api_key_scope_missing` (spec, Authentication, "Request checks" step 5), or the same code in a
 * 2xx body (a placement answers in its 201 result shape: read as the 403 would be, as
 * KEY_REFUSED_CODES are). Scopes are a property of the key: no retry with it can succeed, so a
 * long-running caller stops on it as on a revoked key. A 403 without that code (`wallet_banned`, a
 * proxy's page) is not this.
 * @example scopeMissing(err) ? `lacks ${missingScope(err)}` : "another failure"
 */
export function scopeMissing(err: unknown): err is ExchangeError {
  if (!(err instanceof ExchangeError) || err.code !== "api_key_scope_missing") return false;
  const status = err.httpStatus;
  return status !== undefined && (status === 403 || (status >= 200 && status < 300));
}

/**
 * The scope a scope refusal names: the body's `requiredScope` when it is a scope name, else the
 * spec's scope of the endpoint, else undefined.
 * @example missingScope(placeRefused) // "orders:write"
 */
export function missingScope(err: ExchangeError): string | undefined {
  const named = err.details.requiredScope;
  if (typeof named === "string" && SCOPE_NAME.test(named)) return named;
  return ENDPOINT_SCOPES.get(err.endpoint);
}

/**
 * What a scope refusal means, for the log and the stop's reason: the code, the scope and the
 * request that needs it.
 * @example scopeRefusalText(err) // "api_key_scope_missing: the API key lacks orders:write, which POST /api/orders/place needs"
 */
export function scopeRefusalText(err: ExchangeError): string {
  const scope = missingScope(err);
  const lacks = scope === undefined ? "a scope" : scope;
  return `api_key_scope_missing: the API key lacks ${lacks}, which ${err.endpoint} needs`;
}

/**
 * Whether `err` is a scope refusal of one of the spec's public reads (GET /api/markets, a market's
 * record, /api/platform/status…). The spec gives them no scope and needs no key for them; only
 * markets:read "raises the rate ceiling". An exchange that still checks a scope on such a read sent
 * with a key refuses nothing mm's orders, order reads or portfolio reads need: a running mm can do
 * without the reads it makes there (record reads, platform status), so this is not the key refused
 * for good.
 * @example publicReadScopeRefused(recordReadRefused) // true: GET /api/markets/{slug}
 */
export function publicReadScopeRefused(err: unknown): boolean {
  return scopeMissing(err) && PUBLIC_READ.test(err.endpoint);
}
