import type { Logger } from "pino";
import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/errors.js";
import { type BreakerVerdict, type CircuitBreaker, defaultBreakerVerdict } from "./circuit-breaker.js";
import { errorFromEnvelope, errorFromResponse, malformed, type ParsedEnvelope } from "./envelopes.js";
import { ExchangeError } from "./exchange-error.js";
import { buildPath, type QueryParams } from "./paths.js";
import { type RetryEvent, type RetrySettings, withRetry } from "./retry-policy.js";
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
  /** Checks and shapes the body (`path` names the endpoint in messages); throw ValidationError when it does not fit. */
  parse: (body: unknown, path: string, res: TransportResponse) => T;
}

/**
 * Paces requests before they leave: a promise for the request to wait on (it resolves once the
 * request may go, its rate token spent), or undefined for one that need not wait. Asked before each
 * attempt (a retry is another request the server counts).
 */
export type RequestGate = (method: HttpMethod, route: string) => Promise<void> | undefined;

export interface CallerOptions {
  transport: HttpTransport;
  breaker: CircuitBreaker;
  retry: RetrySettings;
  clock: Clock;
  random: () => number;
  logger: Logger;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  breakerVerdict?: ((err: unknown) => BreakerVerdict) | undefined;
  /** Told of every answer 401 (the key refused), whatever the call does with the error. */
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
    const send = () =>
      this.#o.breaker.run(endpoint, () => this.#attempt(spec, endpoint, path), this.#verdict);
    return withRetry(
      () => {
        // An ungated request leaves in the same tick as before (placements are latency-sensitive).
        const wait = this.#gate?.(spec.method, spec.route);
        return wait === undefined ? send() : wait.then(send);
      },
      {
        method: spec.method,
        endpoint,
        clock: this.#o.clock,
        random: this.#o.random,
        settings: this.#o.retry,
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

  async #attempt<T>(spec: CallSpec<T>, endpoint: string, path: string): Promise<T> {
    try {
      return await this.#answer(spec, endpoint, path);
    } catch (err) {
      if (err instanceof ExchangeError && err.httpStatus === 401) this.#o.onUnauthorized?.(err);
      throw err;
    }
  }

  async #answer<T>(spec: CallSpec<T>, endpoint: string, path: string): Promise<T> {
    const req = { method: spec.method, route: spec.route, path, body: spec.body };
    const res = await this.#o.transport.send(req);
    const accepted = spec.acceptStatus?.includes(res.status) === true;
    let error = accepted
      ? undefined
      : errorFromResponse(res, { placement: spec.placement === true, allowText: spec.allowText === true });
    if (error === undefined && spec.rejectOf !== undefined && res.status < 300) {
      const reject = spec.rejectOf(res.json);
      if (reject !== undefined) error = errorFromEnvelope(res, reject, "http_error");
    }
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
