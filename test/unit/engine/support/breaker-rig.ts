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
  /** Set false, the service answers again: the venue's statuses. */
  down: boolean;
}

/**
 * Wires the harness's status reads (list and records) to a market service that answers 503 to
 * every request while `down` (the venue's statuses after), each attempt through a real CircuitBreaker on the harness's clock as the HTTP
 * client sends it: CLIENT_ATTEMPTS attempts a read, one when `once`, and none taking the breaker's
 * half-open probe when `neverProbe` (the client's CallSpec.neverProbe). The list is read as
 * HttpExchange.listedMarkets reads it: once, never the probe.
 */
export function failingMarketService(h: Harness, settings: Partial<BreakerSettings> = {}): FailingService {
  const service: FailingService = {
    breaker: new CircuitBreaker(h.clock, settings),
    requests: 0,
    down: true,
  };
  const attempt = async <T>(
    endpoint: string,
    attempts: number,
    neverProbe: boolean,
    answer: () => T,
  ): Promise<T> => {
    let last: unknown;
    for (let i = 0; i < attempts; i++) {
      try {
        return await service.breaker.run(
          endpoint,
          () => {
            service.requests++;
            return service.down ? Promise.reject(unavailable(endpoint)) : Promise.resolve(answer());
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
  h.exchange.marketRecord = ({ marketId }, read) =>
    attempt(
      "GET /api/markets/{slug}",
      read?.once === true ? 1 : CLIENT_ATTEMPTS,
      read?.neverProbe === true,
      () => ({ status: h.venue.market(marketId)?.status ?? "OPEN" }),
    );
  h.exchange.listedMarkets = () =>
    attempt("GET /api/markets", 1, true, () =>
      h.venue.markets().map((m) => ({ marketId: m.marketId, status: m.status })),
    );
  return service;
}
