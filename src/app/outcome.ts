import { ConfigError } from "../config/errors.js";
import { keyRefused } from "../exchange/exchange-error.js";
import { scopeMissing, scopeRefusalText } from "../exchange/scope-refusal.js";
import { GatewayFatalError, wrongGatewayUrl } from "../gateway/errors.js";

/**
 * Exit codes of the long-running commands (`mm run`, `mm paper`):
 * - 0: stopped on request (SIGINT/SIGTERM/SIGHUP) with every quote cancelled;
 * - 1: unexpected error, or the stop could not confirm every quote cancelled in time;
 * - 2: configuration or usage error (nothing was sent);
 * - 3: the exchange refused the credentials for good (API key revoked, expired or suspended,
 *   forbidden origin, or lacking a scope a request needs…): mm cancelled what it could and
 *   stopped; a restart will not help.
 */
export const DAEMON_EXIT = { ok: 0, failed: 1, config: 2, fatal: 3 } as const;

/** How a daemon run ended: the exit code and a short reason naming the cause. */
export interface DaemonOutcome {
  readonly exitCode: number;
  /** e.g. "SIGTERM", "api_key_revoked", "2 orders may still be open". */
  readonly reason: string;
}

/**
 * The credential failure an error means, as its code (`api_key_revoked`, `api_key_suspended`,
 * `forbidden_origin`…), or undefined when the error is something else. A gateway's fatal close
 * and an HTTP 401 carrying the exchange's error code (keyRefused) both count, and so does a 403
 * `api_key_scope_missing` (scopeMissing: the key lacks a scope mm needs): none heals by retrying
 * with the same key.
 * @example fatalAuthCode(new GatewayFatalError("user", "api_key_revoked", "…", 4401)) // "api_key_revoked"
 */
export function fatalAuthCode(err: unknown): string | undefined {
  // An upgrade refused without the exchange's error code (a wrong path's 404, a proxy's 401) is not
  // the key: exit 1, named as such. One carrying the code is named by it (fatalUpgrade).
  if (err instanceof GatewayFatalError) return wrongGatewayUrl(err) ? undefined : err.code;
  // A 401 without the exchange's error body (another service, a proxy's page) is not the key's.
  if (keyRefused(err) || scopeMissing(err)) return err.code;
  return undefined;
}

/**
 * The stop reason of a final refusal: its code, with the scope and the request for a missing scope
 * (`api_key_scope_missing: the API key lacks orders:write, which POST /api/orders/place needs`),
 * since the code alone does not say which scope to grant. Undefined when `err` is not final.
 * @example fatalAuthReason(err) ?? "an ordinary failure"
 */
export function fatalAuthReason(err: unknown): string | undefined {
  if (scopeMissing(err)) return scopeRefusalText(err);
  return fatalAuthCode(err);
}

/** The exit code an error thrown while starting or running the daemon maps to. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof ConfigError) return DAEMON_EXIT.config;
  if (fatalAuthCode(err) !== undefined) return DAEMON_EXIT.fatal;
  return DAEMON_EXIT.failed;
}
