import { Feeds, type FeedTuning } from "../../../src/app/feeds.js";
import type { QuotedMarkets } from "../../../src/app/markets.js";
import type { BookState } from "../../../src/book/book-state.js";
import { SimClock } from "../../../src/core/sim-clock.js";
import type { TokenMarket } from "../../../src/core/trading.js";
import type { Engine } from "../../../src/engine/engine-api.js";
import { createLogger } from "../../../src/observability/logger.js";
import { type CollectingStream, collectingStream } from "../../support/collecting-stream.js";
import type { RawServer } from "./raw-server.js";

/** The engine as Feeds sees it: the reconnects it was told of and the book states it was given. */
export class RecordingEngine {
  reconciles = 0;
  readonly states: BookState[] = [];
  onReconnect(): void {
    this.reconciles++;
  }
  onFill(): void {}
  onBook(): void {}
  onBookState(s: BookState): void {
    this.states.push(s);
  }
  onMarketStatus(): void {}
  onPlatformStatus(): void {}
}

/** An open binary market's token of market "m1" (tick 0.01, minimum size 1). */
export function bookToken(
  tokenId: string,
  outcome: string,
  outcomeIndex: number,
  conditionId: string,
): TokenMarket {
  return {
    tokenId,
    marketId: "m1",
    conditionId,
    outcome,
    outcomeIndex,
    tickMicro: 10_000,
    minSizeMicro: 1_000_000n,
    feeTakerBps: null,
    negRisk: false,
    closesAtMs: undefined,
    status: "OPEN",
  };
}

/** No markets quoted: for feeds tests of the user channels alone. */
export const NO_MARKETS: QuotedMarkets = {
  tokens: [],
  slugs: [],
  unquotable: [],
  strategyFor: () => undefined,
  marketOfCondition: () => undefined,
  slugOf: () => undefined,
};

/** The quoted markets of `tokens`, all of market "m1", no strategy override. */
export function marketM1(tokens: readonly TokenMarket[]): QuotedMarkets {
  return {
    tokens: [...tokens],
    slugs: ["m1"],
    unquotable: [],
    strategyFor: () => undefined,
    marketOfCondition: () => "m1",
    slugOf: () => "m1",
  };
}

/** Feeds (not started) of `markets` against a scripted server, on a SimClock, logging into a sink. */
export interface FeedsRig {
  readonly f: Feeds;
  readonly engine: RecordingEngine;
  readonly clock: SimClock;
  readonly sink: CollectingStream;
}

/**
 * Builds Feeds on `srv` with a RecordingEngine, a SimClock at 1,000,000 and an info-level logger
 * into a collecting sink; stall detection off unless `tuning` says otherwise.
 */
export function feedsOn(srv: RawServer, markets: QuotedMarkets, tuning: FeedTuning = {}): FeedsRig {
  const engine = new RecordingEngine();
  const clock = new SimClock(1_000_000);
  const sink = collectingStream();
  const f = new Feeds({
    wsUrl: srv.url,
    apiKey: { reveal: () => "k" },
    userWallet: undefined,
    clock,
    logger: createLogger({ level: "info", pretty: false, destination: sink }),
    markets,
    engine: engine as unknown as Engine,
    onFatal: () => {},
    tuning: { tracker: { stall: { enabled: false } }, ...tuning },
  });
  return { f, engine, clock, sink };
}
