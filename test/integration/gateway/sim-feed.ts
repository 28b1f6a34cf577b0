import { afterEach } from "vitest";
import { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { MarketDataFeed, type MarketDataFeedOptions } from "../../../src/gateway/market-data-feed.js";
import type { GatewayClientOptions } from "../../../src/gateway/options.js";
import type { RecheckScheduled } from "../../../src/gateway/refused-books.js";
import { type Mock, marketClient, startMock } from "./harness.js";
import type { RawServer } from "./raw-server.js";

/**
 * A token_book snapshot as the server pushes it (bid 0.5 × 10, ask 0.52 × `askSize`): a
 * one-level book the tests can tell apart by `seq`.
 */
export function snapshotFrame(tokenId: string, seq: number, sid = 1, askSize = "1") {
  return {
    type: "book_snapshot",
    sid,
    channel: "token_book",
    id: tokenId,
    data: {
      tokenId,
      seq,
      tsMs: 1_000,
      bids: [{ price: "0.5", size: "10" }],
      asks: [{ price: "0.52", size: askSize }],
    },
  };
}

/**
 * A market GatewayClient on `url` driven by `clock` (fixed jitter), and a MarketDataFeed over it
 * with the stall detector off: the set-up of the scripted-server feed tests.
 */
function simFeed(
  url: string,
  clock: SimClock,
  timing: NonNullable<GatewayClientOptions["timing"]> = {},
  tracker: MarketDataFeedOptions["tracker"] = {},
  limits: GatewayClientOptions["limits"] = {},
): MarketDataFeed {
  const client = new GatewayClient({
    url,
    gateway: "market",
    apiKey: "k",
    clock,
    random: () => 0.5,
    timing,
    limits,
  });
  return new MarketDataFeed({ client, clock, tracker: { stall: { enabled: false }, ...tracker } });
}

/** What `FeedSlots.feedOn` builds: the SimClock, the market GatewayClient and the feed over it. */
export interface FeedOn {
  readonly clock: SimClock;
  readonly client: GatewayClient;
  readonly feed: MarketDataFeed;
}

/** simFeed's timing, tracker options and caps, and the SimClock's start (1_000_000 unless told). */
export interface FeedOnOptions {
  readonly timing?: NonNullable<GatewayClientOptions["timing"]>;
  readonly tracker?: MarketDataFeedOptions["tracker"];
  /** Lower caps spread the books over several links (the spec's caps: one link up to 25,600). */
  readonly limits?: GatewayClientOptions["limits"];
  readonly now?: number;
}

/** The servers, feeds and clients a test opened, closed after it (an afterEach registered once). */
export interface FeedSlots {
  /** Closes `x` after the test, before anything kept earlier (a feed before its server). */
  keep<T extends { close(): Promise<unknown> }>(x: T): T;
  /** simFeed on `srv` with a fresh SimClock; the server and the feed are closed after the test. */
  feedOn(srv: RawServer, options?: FeedOnOptions): FeedOn;
}

/**
 * Registers the afterEach that closes what each test kept, the last kept first: the
 * `let server; let feed; afterEach(close both)` header of the scripted-server feed tests.
 * Call it at the top level of a test file.
 */
export function feedSlots(): FeedSlots {
  let kept: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    const all = kept.reverse();
    kept = [];
    for (const x of all) await x.close();
  });
  const keep = <T extends { close(): Promise<unknown> }>(x: T): T => {
    if (!kept.includes(x)) kept.push(x);
    return x;
  };
  return {
    keep,
    feedOn(srv, options = {}) {
      keep(srv);
      const clock = new SimClock(options.now ?? 1_000_000);
      const feed = keep(simFeed(srv.url, clock, options.timing, options.tracker, options.limits));
      return { clock, client: feed.client, feed };
    },
  };
}

/**
 * The mock exchange on 127.0.0.1 and a MarketDataFeed on its market gateway (the mock's clock) that
 * lists each recheck of a refused book it schedules in `rechecks`, and each book a recheck got back
 * in `recovered`; both kept in `slots` (the feed closed first).
 */
export async function recheckingFeed(
  slots: FeedSlots,
): Promise<{ mock: Mock; feed: MarketDataFeed; rechecks: RecheckScheduled[]; recovered: string[] }> {
  const mock = slots.keep(await startMock());
  const rechecks: RecheckScheduled[] = [];
  const recovered: string[] = [];
  const feed = slots.keep(
    new MarketDataFeed({
      client: marketClient(mock),
      clock: mock.clock,
      onRecheck: (e) => rechecks.push(e),
      onRecovered: (ids) => recovered.push(...ids),
    }),
  );
  return { mock, feed, rechecks, recovered };
}

/** `ms` of SimClock time in 250 ms steps, with real I/O (1 ms) in between. */
export async function run(clock: SimClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 250) {
    clock.advanceBy(250);
    await new Promise((r) => setTimeout(r, 1));
  }
}
