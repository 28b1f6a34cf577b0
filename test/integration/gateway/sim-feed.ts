import type { SimClock } from "../../../src/core/sim-clock.js";
import { GatewayClient } from "../../../src/gateway/client.js";
import { MarketDataFeed, type MarketDataFeedOptions } from "../../../src/gateway/market-data-feed.js";
import type { GatewayClientOptions } from "../../../src/gateway/options.js";

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
export function simFeed(
  url: string,
  clock: SimClock,
  timing: NonNullable<GatewayClientOptions["timing"]> = {},
  tracker: MarketDataFeedOptions["tracker"] = {},
): MarketDataFeed {
  const client = new GatewayClient({ url, gateway: "market", apiKey: "k", clock, random: () => 0.5, timing });
  return new MarketDataFeed({ client, clock, tracker: { stall: { enabled: false }, ...tracker } });
}
