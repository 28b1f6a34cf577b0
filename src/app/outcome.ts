import { ConfigError } from "../config/errors.js";
import { MmError } from "../core/errors.js";
import { type ExchangeError, keyRefused } from "../exchange/exchange-error.js";
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
  /**
   * A stop on a key refused for good (exit 3) that left orders of the wallet resting on the
   * exchange, as far as mm knows: absent when it knows of none.
   */
  readonly resting?: RestingOrders;
}

/** The orders a refused key's stop could not cancel, and where mm knows them from. */
export interface RestingOrders {
  /**
   * Orders open after the stop: what its last read of the wallet's open orders listed (an earlier
   * run's included), or, `believed`, the orders this run believes live (no such read answered).
   */
  readonly open: number;
  /** The count is the run's belief: the key could not read the open orders (or no time was left). */
  readonly believed: boolean;
  /**
   * With a believed count: the orders earlier runs left that the journal lists as possibly resting
   * (none when no journal is kept), less those journaled closed since the start and those the engine
   * holds or held (adopted at start: among `open` while live, not resting once ended, even when
   * pruned since), so none is counted twice.
   */
  readonly journaled: number;
}

/**
 * What the exit line says of the orders a refused key's stop left on the exchange: how many and how
 * mm knows, and that they rest there until cancelled with a key holding orders:write (no request
 * with this one cancels them). "quotes cancelled where possible" when mm knows of none.
 * @example restingText({ open: 2, believed: false, journaled: 0 }) // "2 order(s) of the wallet still rest on the exchange (its open-orders list, read after the cancels): …"
 */
export function restingText(resting: RestingOrders | undefined): string {
  if (resting === undefined) return "quotes cancelled where possible";
  const { open, believed, journaled } = resting;
  const known = believed
    ? `${open} order(s) this run believes open${journaled === 0 ? "" : ` and ${journaled} an earlier run left (by the journal)`}` +
      " may still rest on the exchange (the key could not read the wallet's open orders)"
    : `${open} order(s) of the wallet still rest on the exchange (its open-orders list, read after the cancels)`;
  return `${known}: they stay there until cancelled with a key holding orders:write (a restart with such a key cancels them, reconcile.onStart cancel)`;
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
  if (err instanceof RefusedStartError) return fatalAuthCode(err.refusal);
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
  if (err instanceof RefusedStartError) return fatalAuthReason(err.refusal);
  if (scopeMissing(err)) return scopeRefusalText(err);
  return fatalAuthCode(err);
}

/** The exit code an error thrown while starting or running the daemon maps to. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof ConfigError) return DAEMON_EXIT.config;
  if (fatalAuthCode(err) !== undefined) return DAEMON_EXIT.fatal;
  return DAEMON_EXIT.failed;
}

/**
 * A start ended by a key refused for good (`refusal`: its code, message and details) whose stop,
 * run during the start, left orders of the wallet resting (`resting`): what startDaemon throws in
 * the refusal's place then, so the exit line can say what rests. Exit 3, as the refusal.
 */
export class RefusedStartError extends MmError {
  readonly refusal: ExchangeError | GatewayFatalError;
  readonly resting: RestingOrders;

  constructor(refusal: ExchangeError | GatewayFatalError, resting: RestingOrders) {
    super(refusal.code, refusal.message, { ...refusal.details, resting }, { cause: refusal });
    this.refusal = refusal;
    this.resting = resting;
  }
}

/**
 * What a start whose own stop ran (a refusal during the start) throws: `err` as it is, unless it is
 * a final refusal whose stop left orders resting (a RefusedStartError carrying them).
 * @example throw refusedStart(run.refusal ?? err, (await run.done).resting);
 */
export function refusedStart(err: unknown, resting: RestingOrders | undefined): unknown {
  if (resting === undefined || fatalAuthCode(err) === undefined) return err;
  return new RefusedStartError(err as ExchangeError | GatewayFatalError, resting);
}
