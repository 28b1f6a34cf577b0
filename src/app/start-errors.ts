import { MmError } from "../core/errors.js";
import { publicUrl } from "../core/public-url.js";
import { NOT_KEY_401_CODES } from "../exchange/assumptions.js";
import { ExchangeError, keyRefused } from "../exchange/exchange-error.js";
import { scopeMissing } from "../exchange/scope-refusal.js";

/**
 * The daemon's start was abandoned because a stop was requested before there was anything to stop
 * (while the markets, or the key's wallet, were read): nothing was opened or placed. The lifecycle turns it into the
 * request's own outcome (exit 0), never an error.
 */
export class StartStoppedError extends MmError {
  constructor(reason: string) {
    super("start_stopped", `the start was stopped (${reason}) before anything was opened`, { reason });
  }
}

/**
 * A REST read of the start failed (the markets, then the engine's: the wallet's positions, open
 * orders, trades): the exchange cannot be reached at `exchange.baseUrl` (refused, unresolvable host,
 * TLS, timeout), answered there with an error (a wrong path answers 404), or answered 200 with
 * something that is not the exchange's answer (another web server's HTML page or JSON, a proxy's
 * page). The message names the setting, its URL (no credentials), the URL read and what was wrong;
 * `subject` says what was being read ("the markets", "the wallet's positions"…).
 */
export class StartReadError extends MmError {
  readonly subject: string;

  constructor(err: ExchangeError, baseUrl: string) {
    const url = publicUrl(baseUrl);
    const errno = errnoOf(err.cause);
    const readUrl = err.path === undefined ? undefined : readUrlOf(url, err.path);
    const read = readUrl === undefined ? err.endpoint : `${err.endpoint} at ${readUrl}`;
    super(
      "start_read_failed",
      `exchange.baseUrl ${url}: ${read}: ${describe(err, errno)}; ${hint(err)}`,
      {
        setting: "exchange.baseUrl",
        url,
        endpoint: err.endpoint,
        ...(readUrl === undefined ? {} : { readUrl }),
        ...(err.httpStatus === undefined ? {} : { httpStatus: err.httpStatus }),
        ...(errno === undefined ? {} : { cause: errno }),
      },
      { cause: err },
    );
    this.subject = SUBJECTS[err.endpoint] ?? "the exchange";
  }
}

/** What each start-up read is of, for the operator's line (the endpoint names it for the rest). */
const SUBJECTS: Readonly<Record<string, string>> = {
  "GET /api/markets": "the markets",
  "GET /api/markets/{slug}": "the markets",
  "GET /api/me/positions": "the wallet's positions",
  "GET /api/orders/open": "the wallet's open orders",
  "GET /api/me/trades": "the wallet's trades",
  "GET /api/orders/{id}": "an order",
  "GET /api/orders/{id}/fills": "an order's fills",
};

/**
 * The URL a request target was read at under `baseUrl` (already public: no credentials).
 * @example readUrlOf("http://127.0.0.1:8080/", "/api/markets?limit=500") // "http://127.0.0.1:8080/api/markets?limit=500"
 */
export function readUrlOf(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}

/**
 * What a failed start-up read of the markets throws: a StartReadError naming exchange.baseUrl for
 * an exchange failure, except a refused key (HTTP 401 with the exchange's error code: exit 3,
 * keyRefused; or 403 `api_key_scope_missing`, a scope the key lacks: exit 3, scopeMissing) and anything that is not an exchange failure (a ConfigError stays exit 2), returned
 * as they are. A 401 without the exchange's error body (another service at the URL, a proxy's
 * page) is a StartReadError too: the key is not to blame.
 * @example throw startReadError(err, config.exchange.baseUrl)
 */
export function startReadError(err: unknown, baseUrl: string): unknown {
  if (!(err instanceof ExchangeError) || keyRefused(err) || scopeMissing(err)) return err;
  return new StartReadError(err, baseUrl);
}

/**
 * What a failed engine start throws from the daemon: a start-up read that failed (the baseline's
 * positions, the open orders before the start-up cancel, or a read of the start-up reconcile, which
 * the engine wraps as `engine_start_failed`) as a StartReadError naming exchange.baseUrl, as for the
 * markets; a refused key (401: exit 3) and anything else as it is.
 * @example await engine.start().catch((err: unknown) => { throw engineStartError(err, config.exchange.baseUrl); });
 */
export function engineStartError(err: unknown, baseUrl: string): unknown {
  const read =
    err instanceof MmError && err.code === "engine_start_failed" && err.cause instanceof ExchangeError
      ? err.cause
      : err;
  const named = startReadError(read, baseUrl);
  return named === read ? err : named;
}

function describe(err: ExchangeError, errno: string | undefined): string {
  let own = err.message.startsWith(`${err.endpoint}: `)
    ? err.message.slice(err.endpoint.length + 2)
    : err.message;
  // A boundary check names the field from the endpoint ("GET /api/markets.markets"), already said.
  if (err.code === "malformed_response" && own.startsWith(err.endpoint)) {
    own = `body${own.slice(err.endpoint.length)}`;
  }
  // Not the exchange's 401 or 403 (its carry a code): what answered is shown, the client's snippet
  // of its body. (One whose body was cut, timed out or too large falls to the general line below.)
  if (notTheExchanges(err)) {
    const body = err.details.body;
    return `HTTP ${err.httpStatus} without the exchange API's error body: got ${typeof body === "string" ? body : own}`;
  }
  if (err.httpStatus !== undefined) return `HTTP ${err.httpStatus} ${err.code}: ${own}`;
  // Node's TLS errors say what failed but not their code, which is what an operator searches for.
  const code = errno === undefined || own.includes(errno) ? "" : ` [${errno}]`;
  return `${own}${code}`;
}

/**
 * What to check: a 2xx that is not the exchange's answer points at the setting, not at an outage, and
 * so does a 401 or 403 without the exchange's error body (a refused key's 401 never gets here, and a
 * 401 `wallet_mismatch` points at the wallet's maker or vault mapping); a
 * 403 with its code (a refused wallet; a missing scope is final and never gets here) at the key, whose URL
 * and exchange are evidently right; a 429 left after the retries at the request rate.
 */
function hint(err: ExchangeError): string {
  const ok = err.httpStatus !== undefined && err.httpStatus >= 200 && err.httpStatus < 300;
  if (ok && err.code === "malformed_response")
    return "the answer is not the exchange API's: check the setting";
  // The exchange's 401 that is not about the key: the wallet's maker or vault mapping (NOT_KEY_401_CODES).
  if (err.httpStatus === 401 && NOT_KEY_401_CODES.has(err.code)) {
    return "the exchange refused the wallet's maker or vault mapping (a vault still deploying passes): try again, or check the wallet";
  }
  if (err.httpStatus === 401 || notTheExchanges(err)) {
    const what = err.httpStatus === 401 ? "401s carry a code naming the key's problem" : "403s carry a code";
    return `the answer is not the exchange API's (its ${what}): check the setting`;
  }
  if (err.httpStatus === 403) {
    return "the exchange refused this read to the API key: check the key's scopes and the wallet's standing";
  }
  if (err.httpStatus === 429)
    return "the exchange is rate-limiting this key: wait, or check what else uses it";
  return "check the setting, or whether the exchange is up";
}

/**
 * A 401 or 403 without the exchange's error code in its body: another service or a proxy at the URL
 * (a login page, a firewall's "Access denied"), not the exchange refusing the key or the read.
 */
function notTheExchanges(err: ExchangeError): boolean {
  return (err.httpStatus === 401 || err.httpStatus === 403) && err.code === "http_error";
}

function errnoOf(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
