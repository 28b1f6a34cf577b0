import type { Logger } from "pino";
import { parseApiKey } from "../core/api-key.js";
import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/errors.js";
import { ExchangeCaller, type RequestGate } from "./caller.js";
import { CatalogApi } from "./catalog.js";
import {
  type BreakerSettings,
  type BreakerSnapshot,
  type BreakerState,
  type BreakerVerdict,
  CircuitBreaker,
} from "./circuit-breaker.js";
import type { ExchangeError } from "./exchange-error.js";
import { MarketsApi } from "./markets.js";
import { MeApi } from "./me.js";
import { OrdersApi } from "./orders.js";
import { PlatformApi } from "./platform.js";
import type { RateLimitState, RateLimitTracker } from "./rate-limit-state.js";
import { DEFAULT_RETRY_SETTINGS, type RetryEvent, type RetrySettings } from "./retry-policy.js";
import type { ServerClock } from "./server-clock.js";
import { HttpTransport } from "./transport.js";
import { WithdrawalsApi } from "./withdrawals.js";

export interface ExchangeHttpClientOptions {
  /** HTTP base address, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** `<svc>_<env>_<keyId>_<secret>`; sent as X-Api-Key, never logged. Public reads work without it. */
  apiKey?: string | undefined;
  /** For multi_wallet partners: the acting wallet, sent as X-User-Wallet on every request. */
  userWallet?: string | undefined;
  clock: Clock;
  logger: Logger;
  /** Whole-request timeout, ms. Default 10 000. */
  timeoutMs?: number;
  retry?: Partial<RetrySettings>;
  breaker?: Partial<BreakerSettings>;
  /** Jitter source; Math.random by default (this is an adapter), injected in tests. */
  random?: () => number;
  /** Keep-alive pool size. Default 16. */
  maxSockets?: number;
  /** Observes retries (metrics). */
  onRetry?: (event: RetryEvent) => void;
  /** Observes breaker state changes (metrics, alerts); they are also logged at warn. */
  onBreakerStateChange?: (snapshot: BreakerSnapshot, previous: BreakerState) => void;
  /** Overrides which failures count against the breaker (see defaultBreakerVerdict). */
  breakerVerdict?: (err: unknown) => BreakerVerdict;
}

/** Listeners of answers 401 refusing the key (ExchangeHttpClient.onUnauthorized). */
type UnauthorizedListener = (err: ExchangeError) => void;

const USER_WALLET_RE = /^0x[a-fA-F0-9]{40}$/;

/**
 * The typed HTTP client of the Integrator Trading API: one object per endpoint group, sharing one
 * keep-alive transport, retry policy, circuit breaker, rate-limit state and server-clock estimate.
 * @example
 * const client = new ExchangeHttpClient({ baseUrl, apiKey, clock: new LiveClock(), logger });
 * const market = await client.markets.get("brazil-vs-france-winner");
 * const out = await client.orders.place(signed); // accepted | rejected | ambiguous
 * client.close();
 */
export class ExchangeHttpClient {
  readonly markets: MarketsApi;
  readonly catalog: CatalogApi;
  readonly platform: PlatformApi;
  readonly orders: OrdersApi;
  readonly me: MeApi;
  readonly withdrawals: WithdrawalsApi;
  readonly breaker: CircuitBreaker;
  readonly #transport: HttpTransport;
  readonly #caller: ExchangeCaller;
  readonly #unauthorized = new Set<UnauthorizedListener>();

  constructor(opts: ExchangeHttpClientOptions) {
    if (opts.userWallet !== undefined && !USER_WALLET_RE.test(opts.userWallet)) {
      throw new ValidationError(
        "invalid_user_wallet",
        "userWallet must be 0x followed by 40 hex characters",
        {
          field: "userWallet",
        },
      );
    }
    const keyId = opts.apiKey === undefined ? undefined : keyIdOf(opts.apiKey);
    const logger = opts.logger.child({
      component: "exchange-http",
      ...(keyId === undefined ? {} : { keyId }),
    });
    this.#transport = new HttpTransport({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      userWallet: opts.userWallet,
      clock: opts.clock,
      logger,
      timeoutMs: opts.timeoutMs ?? 10_000,
      ...(opts.maxSockets === undefined ? {} : { maxSockets: opts.maxSockets }),
    });
    this.breaker = new CircuitBreaker(opts.clock, opts.breaker ?? {}, (snapshot, previous) => {
      logger.warn({ ...snapshot, previous }, `exchange circuit breaker ${previous} -> ${snapshot.state}`);
      opts.onBreakerStateChange?.(snapshot, previous);
    });
    const caller = new ExchangeCaller({
      transport: this.#transport,
      breaker: this.breaker,
      retry: { ...DEFAULT_RETRY_SETTINGS, ...(opts.retry ?? {}) },
      clock: opts.clock,
      random: opts.random ?? Math.random,
      logger,
      onRetry: opts.onRetry,
      breakerVerdict: opts.breakerVerdict,
      onUnauthorized: (err) => {
        for (const l of this.#unauthorized) l(err);
      },
    });
    this.#caller = caller;
    this.markets = new MarketsApi(caller);
    this.catalog = new CatalogApi(caller);
    this.platform = new PlatformApi(caller);
    this.orders = new OrdersApi(caller);
    this.me = new MeApi(caller);
    this.withdrawals = new WithdrawalsApi(caller);
  }

  /**
   * Calls `listener` with every answer 401 that refuses the key (a revoked, expired or suspended
   * key…: the exchange's error code in the body, keyRefused), and every 403 `api_key_scope_missing`
   * (the key lacks the request's scope, e.g. orders:write on a placement: scopeMissing), whichever
   * call got it and however that call reports it (a placement's reject, a read's error): a
   * long-running caller can stop on it, since no retry with the same key heals it. A 401 without the
   * exchange's error body (a proxy's page) is not passed on: it stays the call's failure. Returns
   * the unsubscribe.
   */
  onUnauthorized(listener: UnauthorizedListener): () => void {
    this.#unauthorized.add(listener);
    return () => this.#unauthorized.delete(listener);
  }

  /**
   * Paces the client's requests: every attempt of every call first waits on `gate` (undefined
   * removes it), and the ticket it resolves with hears that attempt's answer. The engine paces its
   * order reads through its rate budget this way, pages and retries included, and feeds their
   * X-RateLimit-* headers and 429s back to it (HttpExchange.gateRequests).
   */
  gateRequests(gate: RequestGate | undefined): void {
    this.#caller.setGate(gate);
  }

  /** Last rate-limit headers seen per endpoint (`METHOD /route/template`). */
  get rateLimits(): RateLimitTracker {
    return this.#transport.rateLimits;
  }

  /** Last rate-limit state of one endpoint, e.g. `rateLimit("POST /api/orders/place")`. */
  rateLimit(endpoint: string): RateLimitState | undefined {
    return this.#transport.rateLimits.get(endpoint);
  }

  /** Server clock estimate from X-Server-Time. */
  get serverClock(): ServerClock {
    return this.#transport.serverClock;
  }

  /** X-API-Version of the last response. */
  get apiVersion(): string | undefined {
    return this.#transport.apiVersion;
  }

  /**
   * Closes keep-alive connections and the breaker's timer. From then on nothing is sent: a call waiting
   * to retry or on the request gate (gateRequests), or made later, fails at once with an ExchangeError
   * `client_closed`.
   */
  close(): void {
    this.breaker.dispose();
    this.#transport.close();
  }
}

/**
 * The public keyId of an API key (`<svc>_<env>_<keyId>_<secret>`), safe to log; undefined when the key
 * does not have that shape.
 * @example keyIdOf("mm_live_0123456789abcdef_s3cr3t…") // "0123456789abcdef"
 */
export function keyIdOf(apiKey: string): string | undefined {
  const parsed = parseApiKey(apiKey);
  return parsed.ok ? parsed.parts.keyId : undefined;
}
