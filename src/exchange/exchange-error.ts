import { MmError } from "../core/errors.js";
import { KEY_REFUSED_CODES, NOT_KEY_401_CODES } from "./assumptions.js";
import { type ExchangeCodeLike, isClientCode } from "./codes.js";

/**
 * What a failure tells the caller about the request's effect on the exchange:
 * - `rejected`: definite; the exchange refused it and did nothing. Sending it again unchanged fails again.
 * - `retryable`: the exchange did not act (rate limited, unavailable, never reached); safe to send again later.
 * - `ambiguous`: the request may or may not have taken effect; only a later read can tell (for an order,
 *   the reconciler). Never resend an ambiguous write blindly.
 */
export type ExchangeOutcome = "rejected" | "retryable" | "ambiguous";

export interface ExchangeErrorInit {
  code: ExchangeCodeLike;
  message: string;
  outcome: ExchangeOutcome;
  /** `METHOD /route/template`, e.g. `GET /api/orders/{id}`. */
  endpoint: string;
  /** The request target sent (path and query, under the base URL), when the request was built. */
  path?: string | undefined;
  httpStatus?: number | undefined;
  /** X-Request-Id of the response, when one arrived. */
  requestId?: string | undefined;
  /** `error.trace_id` of a nested envelope, or X-Trace-Id. */
  traceId?: string | undefined;
  /** Wait the exchange asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number | undefined;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Every failure of an exchange call, whichever envelope (placement result, nested, bare) or transport
 * failure it came from. Branch on `code` and `outcome`; quote `requestId` in support tickets.
 * @example
 * try { await client.orders.cancel(id) } catch (e) {
 *   if (e instanceof ExchangeError && e.code === "not_cancellable") return; // already terminal
 *   throw e;
 * }
 */
export class ExchangeError extends MmError {
  declare readonly code: ExchangeCodeLike;
  readonly outcome: ExchangeOutcome;
  readonly endpoint: string;
  /** The request target sent, e.g. `/api/markets/some-slug` (the endpoint names only its route). */
  readonly path: string | undefined;
  readonly httpStatus: number | undefined;
  readonly requestId: string | undefined;
  readonly traceId: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: ExchangeErrorInit) {
    super(init.code, init.message, init.details ?? {}, { cause: init.cause });
    this.outcome = init.outcome;
    this.endpoint = init.endpoint;
    this.path = init.path;
    this.httpStatus = init.httpStatus;
    this.requestId = init.requestId;
    this.traceId = init.traceId;
    this.retryAfterMs = init.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      outcome: this.outcome,
      endpoint: this.endpoint,
      path: this.path,
      httpStatus: this.httpStatus,
      requestId: this.requestId,
      traceId: this.traceId,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

/**
 * Whether `err` is the exchange refusing the API key: an answer 401 whose body carries the
 * exchange's error code (the spec's Authentication checks: `auth_required`, `api_key_unknown_key`,
 * `api_key_revoked`…; a code the catalogue does not list yet counts too, but not `wallet_mismatch`,
 * the spec's 401 alias of maker_mismatch: NOT_KEY_401_CODES), or a business reject in a
 * 2xx body (a placement's 201 REJECTED) carrying one of the spec's 401 key refusals
 * (KEY_REFUSED_CODES, src/exchange/assumptions.ts). A 401 without a code
 * (`http_error`: another service at the URL, a proxy's login page; or a body never read whole:
 * `connection_lost`, `request_timeout`, `malformed_response`) is no word of the exchange's on
 * the key, which a restart with it might then not find refused at all.
 * @example keyRefused(err) ? "stop for good (exit 3)" : "an ordinary failure"
 */
export function keyRefused(err: unknown): err is ExchangeError {
  if (!(err instanceof ExchangeError) || err.httpStatus === undefined) return false;
  // A client code (http_error, or a body cut off, timed out or too large) read no code from the body.
  // A maker or vault mapping refused (wallet_mismatch, the 401 alias of maker_mismatch) is not the key.
  if (err.httpStatus === 401) return !isClientCode(err.code) && !NOT_KEY_401_CODES.has(err.code);
  // The placement envelope answers 201 whatever the reject: the code alone says it is the key.
  return err.httpStatus >= 200 && err.httpStatus < 300 && KEY_REFUSED_CODES.has(err.code);
}

/**
 * Classifies an HTTP response that carries a failure (an error status, or a business reject inside a
 * 200/201 body).
 *
 * - 429: retryable. The rate limiter refuses before any processing.
 * - 503 `exchange_unavailable` ("exchange service or matcher unreachable"), or a 503 with no code (a
 *   proxy's): retryable, the request was never handed on. Any other 503 is ambiguous:
 *   `exchange_transport_error` ("connection failed") does not say whether the upstream got the request
 *   before the connection failed, and `exchange_malformed_response` says it *did* answer (just not in
 *   JSON), so either may have acted. A placement answered so is reconciled by its clientOrderId,
 *   never sent again (spec, Retry guidance: do not auto-retry place-order).
 * - 501: rejected. The feature is disabled; retrying cannot help.
 * - Other 5xx (500 `idempotency_race`, 502, 504, …) and 408: ambiguous. The request reached a server that
 *   failed while handling it, so it may have taken effect. `idempotency_race` in particular means another
 *   request with the same (wallet, clientOrderId) is in flight and may create the order. For reads this
 *   costs nothing: the retry policy retries idempotent calls on any 5xx regardless.
 * - Everything else (4xx, 2xx with a code): rejected, a definite business or validation answer.
 * @example classifyHttpFailure(503, "exchange_unavailable") // "retryable"
 */
export function classifyHttpFailure(status: number, code: string): ExchangeOutcome {
  if (status === 429) return "retryable";
  if (status === 503)
    return code === "exchange_unavailable" || code === "http_error" ? "retryable" : "ambiguous";
  if (status === 501) return "rejected";
  if (status >= 500 || status === 408) return "ambiguous";
  return "rejected";
}

/**
 * Classifies a transport failure by whether any byte of the request can have reached the server.
 * Before the connection was established nothing was sent: retryable. After it, the server may have
 * read and acted on the request even though no answer came back: ambiguous.
 * @example classifyTransportFailure(false) // "retryable" (connection refused)
 */
export function classifyTransportFailure(written: boolean): ExchangeOutcome {
  return written ? "ambiguous" : "retryable";
}

/**
 * The failure of a call on a closed client (ExchangeHttpClient.close): nothing more is sent. Its
 * outcome is `rejected` (the exchange did nothing and a resend on this client fails the same way),
 * except when `last`, the failed attempt whose retry the close abandoned, may have taken effect: that
 * stays `ambiguous`.
 * @example throw clientClosedError("GET /api/orders/open");
 */
export function clientClosedError(endpoint: string, last?: ExchangeError): ExchangeError {
  return new ExchangeError({
    code: "client_closed",
    message:
      last === undefined
        ? `${endpoint}: the client is closed, request not sent`
        : `${endpoint}: the client closed while the call waited to retry (${last.code})`,
    outcome: last?.outcome === "ambiguous" ? "ambiguous" : "rejected",
    endpoint,
    path: last?.path,
    httpStatus: last?.httpStatus,
    requestId: last?.requestId,
    traceId: last?.traceId,
    cause: last,
  });
}
