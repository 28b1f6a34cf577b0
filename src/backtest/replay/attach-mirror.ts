import { BotOrders } from "../sim/bot-orders.js";
import type { MarketSetup } from "../sim/markets.js";
import type { SimSession } from "../sim/session.js";
import { CrowdMirror } from "./crowd-mirror.js";
import type { QueueModelSpec } from "./queue-model-spec.js";

/**
 * Puts the recorded market's liquidity into a session's venue: the bot's resting orders followed
 * from the venue's events, and a CrowdMirror fed every venue event, level change, trade print and
 * bot placement (what a replay of recorded data needs; the synthetic runner has its own flow).
 * @example const { bot, mirror } = attachMirror(session, markets, config.queueModel);
 */
export function attachMirror(
  session: SimSession,
  markets: MarketSetup,
  queueModel: QueueModelSpec | undefined,
): { readonly bot: BotOrders; readonly mirror: CrowdMirror } {
  const bot = new BotOrders();
  const mirror = new CrowdMirror(session.venue, session.books, markets, bot, queueModel);
  session.venueEvents.push((e) => {
    bot.onVenueEvent(e);
    mirror.onVenueEvent(e);
  });
  session.levelChanged.push((c) => mirror.onLevel(c));
  session.traded.push((e) => mirror.onTrade(e));
  session.beforeBotPlace.push((m, o, side, price) => mirror.beforeBotPlace(m, o, side, price));
  return { bot, mirror };
}
