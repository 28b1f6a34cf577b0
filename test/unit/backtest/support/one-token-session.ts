import { parseReplayConfig } from "../../../../src/backtest/replay/replay-config.js";
import { buildMarkets, type MarketSetup } from "../../../../src/backtest/sim/markets.js";
import { SimSession } from "../../../../src/backtest/sim/session.js";

/**
 * A SimSession (not started) quoting one token (tick 0.01, no fee) with one bands band of `margin`
 * and size 10 (or `size`), a feed latency of 5 ms, starting at 1,000 ms, seed 1; and its markets.
 */
export function oneTokenSession(
  tokenId: string,
  band: { margin: string; size?: string },
): { session: SimSession; markets: MarketSetup } {
  const config = parseReplayConfig([
    {
      strategy: { name: "bands", params: { bands: [{ margin: band.margin, size: band.size ?? "10" }] } },
      latency: { feedMs: 5 },
    },
  ]);
  const markets = buildMarkets([
    { tokenId, conditionId: "0x01", tickMicro: 10_000, minSizeMicro: 1n, feeTakerBps: 0 },
  ]);
  return { session: new SimSession({ settings: config, markets, startMs: 1_000, seed: 1 }), markets };
}
