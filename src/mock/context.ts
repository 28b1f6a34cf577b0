import type { Clock } from "../core/clock.js";
import type { Logger } from "../observability/logger.js";
import type { SimVenue } from "../venue/sim-venue.js";
import type { BookSeqOffsets } from "./book-seq.js";
import type { Directory } from "./directory.js";
import type { FaultState } from "./faults/state.js";
import type { MarketResolutions } from "./market-resolutions.js";
import type { FixedWindowLimiter } from "./rate-limiter.js";
import type { EventScenario, MarketScenario, Scenario } from "./scenario/types.js";

/** Market lookups the adapters need: by id, slug, symbol, token and condition. */
export interface MarketCatalog {
  readonly all: readonly MarketScenario[];
  readonly events: readonly EventScenario[];
  byId(id: string): MarketScenario | undefined;
  bySlug(slug: string): MarketScenario | undefined;
  bySymbol(symbol: string): MarketScenario | undefined;
  /** The market and outcome index (0 = YES, 1 = NO) of a token id. */
  byToken(tokenId: string): { market: MarketScenario; outcomeIndex: number } | undefined;
  byCondition(conditionId: string): MarketScenario | undefined;
}

/**
 * Everything a mock adapter (HTTP routes, WebSocket gateways, flow simulator, fault injection)
 * shares: one clock, one venue, one directory of partners/keys/wallets, one limiter, one fault
 * state. Built once by createMockExchange.
 */
export interface MockContext {
  readonly scenario: Scenario;
  readonly clock: Clock;
  readonly venue: SimVenue;
  readonly directory: Directory;
  readonly limiter: FixedWindowLimiter;
  readonly faults: FaultState;
  readonly markets: MarketCatalog;
  /** Payouts of the markets resolved through the admin API (the Market record's payoutNumerators). */
  readonly resolutions: MarketResolutions;
  /** Per-token book seq offsets: the seq both the token_book feed and the REST orderbook report. */
  readonly bookSeq: BookSeqOffsets;
  readonly log: Logger;
  /** Seeded random numbers in [0, 1) for the mock's own choices (never Math.random). */
  readonly random: () => number;
  /** Unique id for X-Request-Id / trace ids. */
  nextRequestId(): string;
}

/** Builds the catalogue over a scenario's markets. */
export function marketCatalog(scenario: Scenario): MarketCatalog {
  const byId = new Map(scenario.markets.map((m) => [m.id, m]));
  const bySlug = new Map(scenario.markets.map((m) => [m.slug, m]));
  const bySymbol = new Map(scenario.markets.map((m) => [m.symbol, m]));
  const byCondition = new Map(scenario.markets.map((m) => [m.conditionId, m]));
  const byToken = new Map<string, { market: MarketScenario; outcomeIndex: number }>();
  for (const m of scenario.markets) {
    byToken.set(m.yesTokenId, { market: m, outcomeIndex: 0 });
    byToken.set(m.noTokenId, { market: m, outcomeIndex: 1 });
  }
  return {
    all: scenario.markets,
    events: scenario.events,
    byId: (id) => byId.get(id),
    bySlug: (slug) => bySlug.get(slug),
    bySymbol: (symbol) => bySymbol.get(symbol),
    byToken: (tokenId) => byToken.get(tokenId),
    byCondition: (conditionId) => byCondition.get(conditionId.toLowerCase()),
  };
}
