import type { Logger } from "pino";
import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/errors.js";
import { type BreakerVerdict, type CircuitBreaker, defaultBreakerVerdict } from "./circuit-breaker.js";
import { errorFromEnvelope, errorFromResponse, malformed, type ParsedEnvelope } from "./envelopes.js";
import { clientClosedError, type ExchangeError, keyRefused } from "./exchange-error.js";
import { buildPath, type QueryParams } from "./paths.js";
import type { RateLimitState } from "./rate-limit-state.js";
import { type RetryEvent, type RetrySettings, withRetry } from "./retry-policy.js";
import { scopeMissing } from "./scope-refusal.js";
import type { HttpMethod, HttpTransport, TransportResponse } from "./transport.js";

/** One endpoint call as an endpoint group describes it. */
export interface CallSpec<T> {
  method: HttpMethod;
  /** Route template, e.g. `/api/orders/{id}`. */
  route: string;
  params?: Readonly<Record<string, string>>;
  query?: QueryParams;
  body?: unknown;
  /** POST /api/orders/place: read the placement envelope. */
  placement?: boolean;
  /** A non-JSON 2xx body is fine (health probes). */
  allowText?: boolean;
  /** Statuses returned to `parse` as answers rather than thrown (GET /ready answers 503 when not ready). */
  acceptStatus?: readonly number[];
  /** An endpoint-specific reject inside a 2xx body (see assumptions.ts). */
  rejectOf?: (body: unknown) => ParsedEnvelope | undefined;
  /**
   * Attempts at most for this call (never more than the client's retry setting): 1 for a
   * best-effort read its caller makes again later anyway, so that a failing exchange costs the
   * shared circuit breaker one failure per read rather than one per attempt.
   */
  maxAttempts?: number;
  /**
   * Time allowed for each attempt, ms, in place of the client's timeoutMs (TransportRequest.timeoutMs):
   * shorter for a courtesy read whose caller goes on without its answer.
   */
  timeoutMs?: number;
  /**
   * Never the circuit breaker's half-open probe (RunOptions.neverProbe), unless it has been
   * half-open with no probe for its neverProbeAfterMs: for a best-effort read whose failing answer
   * must not decide, for every request, cancels included, that the exchange is still down.
   */
  neverProbe?: boolean;
  /** Checks and shapes the body (`path` names the endpoint in messages); throw ValidationError when it does not fit. */
  parse: (body: unknown, path: string, res: TransportResponse) => T;
}

/** What a gated attempt's answer said about the server's rate limits, for the gate to learn from. */
export interface GateAnswer {
  /** HTTP status. */
  readonly status: number;
  /** The error code of a failed answer (e.g. `rate_limited`); undefined when it succeeded. */
  readonly code: string | undefined;
  /** The answer's X-RateLimit-* headers, anchored to the client's clock. */
  readonly rateLimit: RateLimitState | undefined;
  /** The answer's Retry-After, ms. */
  readonly retryAfterMs: number | undefined;
}

/**
 * The completion side of a gated attempt: told of its answer once it arrived (never when no answer
 * came: a transport failure, an open circuit). Must not throw.
 */
export type GateTicket = (answer: GateAnswer) => void;

/**
 * Paces requests before they leave: a promise for the request to wait on (it resolves once the
 * request may go, its rate token spent, optionally with a ticket that hears the answer), or
 * undefined for one that need not wait. Asked before each attempt (a retry is another request the
 * server counts), so each attempt has its own ticket. `signal` aborts when the client closes: the
 * caller has then left the wait (client_closed), so the gate should end it and spend nothing.
 */
export type RequestGate = (
  method: HttpMethod,
  route: string,
  signal?: AbortSignal,
) => Promise<GateTicket | undefined> | undefined;

export interface CallerOptions {
  transport: HttpTransport;
  breaker: CircuitBreaker;
  retry: RetrySettings;
  clock: Clock;
  random: () => number;
  logger: Logger;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  breakerVerdict?: ((err: unknown) => BreakerVerdict) | undefined;
  /**
   * Told of every answer that refuses the key for good, whatever the call does with the error: a 401
   * (keyRefused: the exchange's error code in its body) or a 403 `api_key_scope_missing` (scopeMissing:
   * the key lacks a scope the request needs, which no retry with it gains).
   */
  onUnauthorized?: ((err: ExchangeError) => void) | undefined;
}

/**
 * The request pipeline every endpoint goes through: retry policy (outermost, idempotent calls only) →
 * circuit breaker (each attempt counts) → transport → envelope reading → boundary validation. All
 * failures come out as ExchangeError carrying the endpoint and, when a response arrived, X-Request-Id.
 */
export class ExchangeCaller {
  readonly #o: CallerOptions;
  readonly #verdict: (err: unknown) => BreakerVerdict;
  #gate: RequestGate | undefined;

  constructor(opts: CallerOptions) {
    this.#o = opts;
    this.#verdict = opts.breakerVerdict ?? defaultBreakerVerdict;
  }

  /** Installs (or with undefined removes) the gate every attempt waits on. */
  setGate(gate: RequestGate | undefined): void {
    this.#gate = gate;
  }

  /**
   * Runs one endpoint call to completion (retries included).
   * @example const m = await caller.call({ method: "GET", route: "/api/markets/{slug}", params: { slug }, parse: normaliseMarket });
   */
  async call<T>(spec: CallSpec<T>): Promise<T> {
    const endpoint = `${spec.method} ${spec.route}`;
    const path = buildPath(spec.route, spec.params, spec.query);
    const send = (ticket: GateTicket | undefined) =>
      this.#o.breaker.run(endpoint, () => this.#attempt(spec, endpoint, path, ticket), this.#verdict, {
        neverProbe: spec.neverProbe === true,
      });
    const closed = this.#o.transport.closed;
    return withRetry(
      () => {
        // A closed client sends nothing: its gate is not asked either (no rate token spent).
        if (closed.aborted) return Promise.reject(clientClosedError(endpoint));
        // An ungated request leaves in the same tick as before (placements are latency-sensitive).
        const wait = this.#gate?.(spec.method, spec.route, closed);
        return wait === undefined ? send(undefined) : gateUnlessClosed(wait, closed, endpoint).then(send);
      },
      {
        method: spec.method,
        endpoint,
        clock: this.#o.clock,
        random: this.#o.random,
        settings: attemptsAtMost(this.#o.retry, spec.maxAttempts),
        closed,
        onRetry: (event) => {
          this.#o.logger.debug(
            {
              endpoint,
              attempt: event.attempt,
              delayMs: event.delayMs,
              reason: event.reason,
              code: event.error.code,
              requestId: event.error.requestId,
            },
            "exchange http retry",
          );
          this.#o.onRetry?.(event);
        },
      },
    );
  }

  async #attempt<T>(
    spec: CallSpec<T>,
    endpoint: string,
    path: string,
    ticket: GateTicket | undefined,
  ): Promise<T> {
    try {
      return await this.#answer(spec, endpoint, path, ticket);
    } catch (err) {
      if (keyRefused(err) || scopeMissing(err)) this.#o.onUnauthorized?.(err);
      throw err;
    }
  }

  async #answer<T>(
    spec: CallSpec<T>,
    endpoint: string,
    path: string,
    ticket: GateTicket | undefined,
  ): Promise<T> {
    const req = {
      method: spec.method,
      route: spec.route,
      path,
      body: spec.body,
      ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    };
    const res = await this.#o.transport.send(req);
    const accepted = spec.acceptStatus?.includes(res.status) === true;
    let error = accepted
      ? undefined
      : errorFromResponse(res, { placement: spec.placement === true, allowText: spec.allowText === true });
    if (error === undefined && spec.rejectOf !== undefined && res.status < 300) {
      const reject = spec.rejectOf(res.json);
      if (reject !== undefined) error = errorFromEnvelope(res, reject, "http_error");
    }
    // Before a retry can ask the gate again: a 429 must hold this attempt's retry and its peers alike.
    ticket?.({
      status: res.status,
      code: error?.code,
      rateLimit: res.rateLimit,
      retryAfterMs: res.retryAfterMs,
    });
    if (error === undefined) {
      try {
        return spec.parse(res.isJson ? res.json : res.text, endpoint, res);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        error = malformed(res, err.message, { ...err.details }, err);
      }
    }
    this.#logError(error, spec.method, path);
    throw error;
  }

  #logError(err: ExchangeError, method: string, path: string): void {
    this.#o.logger.debug(
      {
        method,
        path,
        status: err.httpStatus,
        code: err.code,
        outcome: err.outcome,
        requestId: err.requestId,
        traceId: err.traceId,
      },
      "exchange http error",
    );
  }
}

/** The retry settings with at most `maxAttempts` attempts (at least one); unchanged when undefined. */
function attemptsAtMost(retry: RetrySettings, maxAttempts: number | undefined): RetrySettings {
  if (maxAttempts === undefined || maxAttempts >= retry.maxAttempts) return retry;
  return { ...retry, maxAttempts: Math.max(1, maxAttempts) };
}

/**
 * The gate's wait, cut by the client's close: a call waiting for its turn fails at once as
 * `client_closed` (nothing sent) rather than when the gate lets it go, so a stop never waits on a
 * gate the closed client can no longer use. A ticket the gate hands out afterwards is dropped.
 */
function gateUnlessClosed(
  wait: Promise<GateTicket | undefined>,
  closed: AbortSignal,
  endpoint: string,
): Promise<GateTicket | undefined> {
  return new Promise((resolve, reject) => {
    const onClose = () => reject(clientClosedError(endpoint));
    closed.addEventListener("abort", onClose, { once: true });
    wait.then(
      (ticket) => {
        closed.removeEventListener("abort", onClose);
        resolve(ticket);
      },
      (err: unknown) => {
        closed.removeEventListener("abort", onClose);
        reject(err);
      },
    );
  });
}
