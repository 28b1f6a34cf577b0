import { describe, expect, it } from "vitest";
import { Recorder } from "../../../src/backtest/report/recorder.js";
import { buildRunSummary } from "../../../src/backtest/report/summary.js";
import type { BacktestFill } from "../../../src/backtest/sim/bot-fills.js";
import type { BotOrders } from "../../../src/backtest/sim/bot-orders.js";
import type { SimSession } from "../../../src/backtest/sim/session.js";
import { noRequests } from "../../../src/backtest/sim/venue-exchange.js";
import type { TokenMarket } from "../../../src/core/trading.js";

/*
 * Markouts of a token whose book was never two-sided, so its mark is its last fill's price
 * (README) and moves at fills, not only at market events: a markout uses the mark in force at
 * t + h, so horizons that came due before a fill are settled before that fill moves the mark (no
 * look-ahead to a later fill's price).
 *
 * Hand-worked (bids only, never two-sided): buy 1 @ 0.40 at 1 s, buy 1 @ 0.30 at 5 s, next book
 * frame at 20 s. At 2 s (1 s horizon of the first fill) the mark is 0.40 → markout 0; at 6 s
 * (second fill) 0.30 → 0. 1 s total 0. At 11 s (first fill, 10 s) 0.30 → −0.10; at 15 s 0.30 → 0.
 * 10 s total −0.10 over 2 shares.
 */

const TOKEN: TokenMarket = {
  tokenId: "7",
  marketId: "m",
  conditionId: "0x01",
  outcome: "YES",
  outcomeIndex: 0,
  tickMicro: 10_000,
  minSizeMicro: 1n,
  feeTakerBps: 0,
  negRisk: false,
  closesAtMs: undefined,
  status: "OPEN",
};

function fakeWorld() {
  let now = 0;
  let bid: number | undefined;
  let ask: number | undefined;
  const session = {
    markets: { tokens: [TOKEN] },
    clock: { now: () => now },
    beforeMarket: [] as ((now: number) => void)[],
    afterMarket: [] as ((now: number) => void)[],
    bookApplied: [] as ((tokenId: string) => void)[],
    filled: [] as ((f: BacktestFill) => void)[],
    settled: [] as ((tokenId: string, payoutMicro: number) => void)[],
    books: { book: () => ({ bids: { bestPrice: () => bid }, asks: { bestPrice: () => ask } }) },
  };
  const bot = { onJoin: () => {}, onLeave: () => {} };
  return {
    session: session as unknown as SimSession,
    bot: bot as unknown as BotOrders,
    book(t: number, b: number | undefined, a: number | undefined) {
      now = t;
      for (const fn of session.beforeMarket) fn(t);
      bid = b;
      ask = a;
      for (const fn of session.bookApplied) fn(TOKEN.tokenId);
      for (const fn of session.afterMarket) fn(t);
    },
    buy(t: number, price: bigint) {
      now = t;
      for (const fn of session.filled)
        fn({
          tsMs: t,
          tokenId: TOKEN.tokenId,
          tradeId: `t${t}`,
          orderId: "o",
          clientOrderId: undefined,
          side: "buy",
          role: "taker",
          price,
          quantity: 1_000_000n,
          notional: price,
          fee: { asset: "usdc", amount: 0n },
        });
    },
  };
}

describe("markouts of a token marked at its last trade", () => {
  it("use the mark in force at t + h, not a later fill's price", () => {
    const w = fakeWorld();
    const rec = new Recorder(w.session, w.bot, { sharpeIntervalMs: 60_000, markoutsMs: [1_000, 10_000] }, 0);
    w.book(0, 400_000, undefined);
    w.buy(1_000, 400_000n);
    w.buy(5_000, 300_000n);
    w.book(20_000, 300_000, undefined);
    const s = buildRunSummary(rec.close(20_000), [TOKEN], noRequests());
    expect(s.markouts).toEqual([
      { horizonMs: 1_000, fills: 2, unresolved: 0, perShare: "0", total: "0" },
      { horizonMs: 10_000, fills: 2, unresolved: 0, perShare: "-0.05", total: "-0.1" },
    ]);
  });
});
