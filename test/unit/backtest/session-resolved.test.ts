import { describe, expect, it } from "vitest";
import { parseReplayConfig } from "../../../src/backtest/replay/replay-config.js";
import { buildMarkets } from "../../../src/backtest/sim/markets.js";
import { SimSession } from "../../../src/backtest/sim/session.js";

const CONDITION = `0x${"ab".repeat(32)}`;
const YES = "111";
const NO = "222";

/**
 * A recorded market_resolved with payouts settles the market at the simulated exchange (RESOLVED:
 * placements refused) and hands each token's payout per share to the report (`settled`), which
 * marks the tokens at it rather than at the last mid. Once the engine has it, the bot's tracker
 * watches the market's books no more, as live (Feeds.retireBooks).
 */
describe("SimSession: a recorded market_resolved", () => {
  it("sets the venue's status and reports each token's payout", async () => {
    const config = parseReplayConfig([
      { strategy: { name: "bands", params: { bands: [{ margin: "0.02", size: "10" }] } } },
    ]);
    const markets = buildMarkets([
      { tokenId: YES, conditionId: CONDITION, tickMicro: 10_000, minSizeMicro: 1n, feeTakerBps: 0 },
      { tokenId: NO, conditionId: CONDITION, tickMicro: 10_000, minSizeMicro: 1n, feeTakerBps: 0 },
    ]);
    const session = new SimSession({ settings: config, markets, startMs: 1_000, seed: 1 });
    const paid: [string, number][] = [];
    session.settled.push((tokenId, micro) => paid.push([tokenId, micro]));
    await session.start();
    session.marketFrame({
      type: "market_resolved",
      sid: 1,
      channel: "condition_lifecycle",
      id: CONDITION,
      data: { conditionId: CONDITION, resolution: "YES", payouts: ["1", "0"], tsMs: 1 },
    });
    expect(paid).toEqual([
      [YES, 1_000_000],
      [NO, 0],
    ]);
    expect(session.venue.market(markets.specs[0]?.marketId ?? "")?.status).toBe("RESOLVED");
    await session.pump.advanceTo(session.clock.now() + 1_000);
    expect(session.tracker.tokens()).toEqual([]);
    await session.finish();
  });
});
