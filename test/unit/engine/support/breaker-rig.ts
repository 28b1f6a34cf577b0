import {
  type BreakerSettings,
  CircuitBreaker,
  defaultBreakerVerdict,
} from "../../../../src/exchange/circuit-breaker.js";
import { ExchangeError } from "../../../../src/exchange/exchange-error.js";
import type { Harness } from "./harness.js";

/** The attempts the HTTP client makes of a GET by default (its retry setting): MarketRead.once makes one. */
export const CLIENT_ATTEMPTS = 3;

/** A public market service down: every read answers 503. */
const unavailable = (endpoint: string): ExchangeError =>
  new ExchangeError({
    code: "exchange_unavailable",
    message: "down",
    outcome: "retryable",
    endpoint,
    httpStatus: 503,
  });

/** What the failing market service saw, and the breaker the cancels would share with its reads. */
export interface FailingService {
  readonly breaker: CircuitBreaker;
  /** Requests that reached the service (one per attempt the breaker let through). */
  requests: number;
}

/**
 * Wires the harness's status reads (list and records) to a market service that answers 503 to
 * every request, each attempt through a real CircuitBreaker on the harness's clock as the HTTP
 * client sends it: CLIENT_ATTEMPTS attempts a read, one when `once`, and none taking the breaker's
 * half-open probe when `neverProbe` (the client's CallSpec.neverProbe). The list is read as
 * HttpExchange.listedMarkets reads it: once, never the probe.
 */
export function failingMarketService(h: Harness, settings: Partial<BreakerSettings> = {}): FailingService {
  const service: FailingService = {
    breaker: new CircuitBreaker(h.clock, settings),
    requests: 0,
  };
  const attempt = async (endpoint: string, attempts: number, neverProbe: boolean): Promise<never> => {
    let last: unknown;
    for (let i = 0; i < attempts; i++) {
      try {
        await service.breaker.run(
          endpoint,
          () => {
            service.requests++;
            return Promise.reject(unavailable(endpoint));
          },
          defaultBreakerVerdict,
          { neverProbe },
        );
      } catch (err) {
        last = err;
        // The client does not retry a call the open breaker refused: the breaker owns that wait.
        if (err instanceof ExchangeError && err.code === "circuit_open") break;
      }
    }
    throw last;
  };
  h.exchange.marketRecord = (_m, read) =>
    attempt("GET /api/markets/{slug}", read?.once === true ? 1 : CLIENT_ATTEMPTS, read?.neverProbe === true);
  h.exchange.listedMarkets = () => attempt("GET /api/markets", 1, true);
  return service;
}
