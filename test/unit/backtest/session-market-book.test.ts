import { describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { buildMarkets } from "../../../src/backtest/sim/markets.js";
import { SimSession } from "../../../src/backtest/sim/session.js";
import type { DesiredQuote } from "../../../src/core/trading.js";
import type { ConfiguredStrategy } from "../../../strategies/registry.js";
import type { StrategyContext } from "../../../strategies/types.js";

const TOKEN = "123456";

/**
 * Live, the exchange's book holds our orders and the engine takes them out before the strategy
 * reads it. A backtest's recorded frames hold only the market: the strategy must read them whole,
 * or our order at a recorded level removes that much of other traders' liquidity from its view.
 */
describe("SimSession: the strategy reads the recorded book whole", () => {
  it("our bid at the recorded best bid leaves that level's size as recorded", async () => {
    const seen: (bigint | undefined)[] = [];
    const strategy: ConfiguredStrategy = {
      name: "join-bid",
      params: {},
      quote(ctx: StrategyContext): DesiredQuote[] {
        seen.push(ctx.book.bids.bestSize());
        return [{ side: "buy", level: 0, priceMicro: 400_000, sizeMicro: 10_000_000n }];
      },
    };
    const config = parseReplayConfig([
      {
        strategy: { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } },
        latency: { feedMs: 5 },
      },
    ]);
    const markets = buildMarkets([
      { tokenId: TOKEN, conditionId: "0x01", tickMicro: 10_000, minSizeMicro: 1n, feeTakerBps: 0 },
    ]);
    const session = new SimSession({ settings: { ...config, strategy }, markets, startMs: 1_000, seed: 1 });
    await session.start();
    const book = (seq: number, bidSize: string) => ({
      type: "book_snapshot",
      sid: 1,
      channel: "token_book",
      id: TOKEN,
      data: {
        tokenId: TOKEN,
        tsMs: 1,
        seq,
        bids: [{ price: "0.40", size: bidSize }],
        asks: [{ price: "0.60", size: "10" }],
      },
    });
    session.marketFrame(book(1, "10"));
    await session.pump.advanceTo(1_100); // our bid of 10 at 0.40 rests at the venue
    session.marketFrame(book(2, "15")); // the market adds 5 behind it
    await session.pump.advanceTo(1_200);
    expect(session.exchange.counts.place).toBe(1);
    expect(seen.at(-1)).toBe(15_000_000n);
    await session.finish();
  });
});
