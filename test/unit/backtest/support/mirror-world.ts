import { CrowdMirror } from "../../../../src/backtest/replay/crowd-mirror.js";
import type { QueueModelSpec } from "../../../../src/backtest/replay/queue-model-spec.js";
import { BOT, CROWD, UNBOUNDED_MICRO } from "../../../../src/backtest/sim/actors.js";
import { BotOrders } from "../../../../src/backtest/sim/bot-orders.js";
import { ExchangeBooks } from "../../../../src/backtest/sim/exchange-books.js";
import { buildMarkets } from "../../../../src/backtest/sim/markets.js";
import type { BookEvent } from "../../../../src/book/events.js";
import { SimClock } from "../../../../src/core/sim-clock.js";
import { toWei } from "../../../../src/core/wei.js";
import type { FillEvent } from "../../../../src/venue/events.js";
import { counterVenueIds } from "../../../../src/venue/ids.js";
import { SimVenue } from "../../../../src/venue/sim-venue.js";

export const T = "5";
export const u = (s: string): bigint => toWei(s);

/**
 * The replay's market side without the engine: venue, exchange books, mirror, the bot's orders.
 * `options.everyLevel`: the mirror keeps every recorded level in the venue (the reference).
 */
export function world(feeTakerBps = 0, queueModel?: QueueModelSpec, options: { everyLevel?: boolean } = {}) {
  const clock = new SimClock(1_000);
  const venue = new SimVenue({ clock, ids: counterVenueIds(), transientWallets: [CROWD] });
  const markets = buildMarkets([
    { tokenId: T, conditionId: "0x01", tickMicro: 10_000, minSizeMicro: 1n, feeTakerBps },
  ]);
  for (const spec of markets.specs) venue.registerMarket(spec);
  venue.credit(BOT, "usdc", u("1000"));
  venue.credit(BOT, T, u("1000"));
  venue.credit(CROWD, "usdc", UNBOUNDED_MICRO);
  venue.credit(CROWD, T, UNBOUNDED_MICRO);
  const books = new ExchangeBooks();
  const bot = new BotOrders();
  const mirror = new CrowdMirror(venue, books, markets, bot, queueModel, options);
  const fills: FillEvent[] = [];
  venue.subscribe((e) => {
    bot.onVenueEvent(e);
    mirror.onVenueEvent(e);
    if (e.type === "fill" && e.walletAddress === BOT) fills.push(e);
  });
  let seq = 0;
  const frame = (e: BookEvent) => books.apply(e, (c) => mirror.onLevel(c));
  return {
    clock,
    venue,
    mirror,
    fills,
    books,
    snapshot(bids: [string, string][], asks: [string, string][]) {
      seq++;
      const lv = (l: [string, string][]) => l.map(([price, size]) => ({ price, size }));
      frame({ type: "book_snapshot", tokenId: T, seq, bids: lv(bids), asks: lv(asks) });
    },
    delta(...changes: [string, string, string][]) {
      seq++;
      frame({
        type: "book_delta",
        tokenId: T,
        seq,
        prevSeq: seq - 1,
        changes: changes.map(([side, price, size]) => ({ side, price, size })),
      });
    },
    /** A recorded trade print: `taker` is the aggressor's side. */
    print(taker: string, price: string, quantity: string) {
      mirror.onTrade({
        type: "trade_matched",
        tokenId: T,
        conditionId: "0x01",
        outcomeIndex: 0,
        tradeId: `t${seq}`,
        price,
        quantity,
        side: taker,
        source: "matcher",
        tsMs: 1_000,
      });
    },
    /** A bot order reaching the venue, as SimSession sends it: the mirror hears of it first. */
    bot(side: "buy" | "sell", price: string, qty: string, tif: "gtc" | "ioc" = "gtc") {
      mirror.beforeBotPlace("0x01", "YES", side, u(price));
      return venue.place({
        wallet: BOT,
        marketId: "0x01",
        outcome: "YES",
        side,
        price: u(price),
        quantity: u(qty),
        timeInForce: tif,
      });
    },
    venueBook: () => venue.bookSnapshot(T),
  };
}

/** The bot's fills as `role side price quantity` (micro-units). */
export const fillsOf = (w: ReturnType<typeof world>) =>
  w.fills.map((f) => `${f.role} ${f.side} ${f.price} ${f.quantity}`);
